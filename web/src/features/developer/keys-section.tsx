import { CreateKeyForm } from './create-key-form';
import { CreatedOnceSection } from './created-once-section';
import type { FailedRead } from '../../components/error-state';
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
  return (
    <CreatedOnceSection<CreateKeyInput, CreatedKey>
      onCreate={onCreate}
      form={(create) => <CreateKeyForm onCreate={create} pending={createPending} />}
      shownOnce={(created, done) => (
        <ShownOncePanel
          key={created.id}
          title={T.keyOnceTitle}
          valueLabel={`API key for ${created.client_name}`}
          value={created.key}
          warning={T.keyOnceWarning}
          copyLabel={T.keyCopy}
          copiedMessage={T.keyCopied}
          onDone={done}
        >
          <p>
            <strong>{created.client_name}</strong>
            {created.sandbox ? ' (sandbox)' : ''}: {created.scopes.join(', ')}. Send it as <code>Authorization: Bearer &lt;key&gt;</code>.
          </p>
        </ShownOncePanel>
      )}
      listTitle="Your keys"
      loading={loading}
      loadingLabel="Loading your API keys"
      loadFailed={loadFailed}
      failedTitle="Your API keys could not be loaded."
      list={keys ? <KeyList keys={keys} onRevoke={onRevoke} revokePending={revokePending} /> : null}
    />
  );
}
