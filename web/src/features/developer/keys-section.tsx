import { useState } from 'react';
import { ErrorState, type FailedRead } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { CreateKeyForm } from './create-key-form';
import { KeyList } from './key-list';
import { ShownOncePanel } from './shown-once-panel';
import { T } from './texts';
import type { ApiKey, CreatedKey, CreateKeyInput } from './types';

interface KeysSectionProps {
  keys: readonly ApiKey[] | undefined;
  loading: boolean;
  /** The list's read, when it failed (shown as the error state with Retry); null otherwise. */
  loadFailed: FailedRead | null;
  /** Resolves the created key (with `key`, its only appearance), or null when it failed (already said). */
  onCreate: (input: CreateKeyInput) => Promise<CreatedKey | null>;
  createPending: boolean;
  onRevoke: (id: string) => Promise<boolean>;
  revokePending: boolean;
}

/** Create form, the new key shown once, and the list (which only ever has prefixes). */
export function KeysSection({ keys, loading, loadFailed, onCreate, createPending, onRevoke, revokePending }: KeysSectionProps) {
  // Held in memory only: never cached, stored or logged; a reload or 'I have saved it' drops it.
  const [created, setCreated] = useState<CreatedKey | null>(null);

  async function create(input: CreateKeyInput) {
    const result = await onCreate(input);
    if (!result) return false;
    setCreated(result);
    return true;
  }

  return (
    <div className="stack">
      <CreateKeyForm onCreate={create} pending={createPending} />
      {created ? (
        <ShownOncePanel
          key={created.id}
          title={T.keyOnceTitle}
          valueLabel={`API key for ${created.client_name}`}
          value={created.key}
          warning={T.keyOnceWarning}
          copyLabel={T.keyCopy}
          copiedMessage={T.keyCopied}
          onDone={() => setCreated(null)}
        >
          <p>
            <strong>{created.client_name}</strong>
            {created.sandbox ? ' (sandbox)' : ''}: {created.scopes.join(', ')}. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
          </p>
        </ShownOncePanel>
      ) : null}
      <div>
        <h3 className="dev-subtitle">Your keys</h3>
        {loading ? (
          <Skeleton lines={3} label="Loading your API keys" />
        ) : loadFailed || !keys ? (
          loadFailed ? (
            <ErrorState title="Your API keys could not be loaded." read={loadFailed} />
          ) : null
        ) : (
          <KeyList keys={keys} onRevoke={onRevoke} revokePending={revokePending} />
        )}
      </div>
    </div>
  );
}
