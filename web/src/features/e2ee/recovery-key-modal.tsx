import { useId, useState } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Modal } from '../../components/modal';
import { toast } from '../../components/toast';
import { recoveryKeyFileText } from '../../crypto';
import { readApiError } from '../../lib/api-error';
import { copyText } from '../../lib/clipboard';
import { trpc } from '../../lib/trpc';
import { useSingleFlight } from '../../lib/use-single-flight';
import { useE2eeState, useE2eeStore, type PendingRecoveryKey } from './key-store';
import { T } from './texts';
import type { KeysApi } from './keys-api';
import { useKeysApi } from './unlock-prompt';

interface RecoveryKeyModalProps {
  pending: PendingRecoveryKey;
  /** Records on the server that this key is saved; the dialog closes only once that worked. */
  onSaved: () => Promise<void>;
  /** The key is no longer the account's (a newer one replaced it): nothing to save, the dialog goes. */
  onReplaced: () => void;
}

/**
 * A new recovery key, shown once: copy, download as .txt, and a tick that it is saved before Close
 * works. Escape and clicks outside do nothing until then. Close records the tick on the server; until it
 * is recorded, every password sign-in makes a new key and shows it here (keys-api.ts), so closing the tab
 * early loses nothing for good.
 */
export function RecoveryKeyModal({ pending, onSaved, onReplaced }: RecoveryKeyModalProps) {
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { pending: recording, run } = useSingleFlight();
  const hintId = useId();

  const close = () =>
    run(async () => {
      setError(null);
      try {
        await onSaved();
      } catch (failure) {
        const { status, detail } = readApiError(failure);
        if (status === 409) {
          onReplaced();
          return;
        }
        setError(detail ?? T.recoverySaveFailed);
      }
    });

  function download() {
    const text = recoveryKeyFileText(pending.email, pending.recoveryKey, pending.createdAt);
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = T.recoveryFileName;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  return (
    <Modal
      open
      onOpenChange={(open) => {
        if (!open && saved) void close();
      }}
      title={T.recoveryTitle}
      description={T.recoveryIntro}
      footer={
        <Button onClick={() => void close()} disabled={!saved || recording} aria-describedby={saved ? undefined : hintId}>
          {T.recoveryClose}
        </Button>
      }
    >
      {pending.replacesUnsaved ? <p className="alert">{T.recoveryReplacesUnsaved}</p> : null}
      {error ? (
        <p role="alert" className="alert">
          {error}
        </p>
      ) : null}
      <p>{T.recoveryOnce}</p>
      <figure className="code-figure" aria-label="Your recovery key">
        <pre className="code-block recovery-key">
          <code>{pending.recoveryKey}</code>
        </pre>
      </figure>
      <div className="button-row">
        <Button variant="secondary" onClick={() => void copyText(pending.recoveryKey, T.recoveryCopied)}>
          {T.recoveryCopy}
        </Button>
        <Button variant="secondary" onClick={download}>
          {T.recoveryDownload}
        </Button>
      </div>
      <p className="muted">{T.recoveryKeep}</p>
      <p className="muted">{T.recoveryUntilSaved}</p>
      <CheckboxField label={T.recoverySaved} checked={saved} onChange={(e) => setSaved(e.target.checked)} />
      {saved ? null : (
        <p id={hintId} className="field__hint">
          {T.recoveryCloseHint}
        </p>
      )}
    </Modal>
  );
}

/**
 * Shows a queued recovery key wherever the user is, records the tick with `recoverySaved`, then forgets
 * the key. `held`: something must be read first (a newcomer's welcome, which says what the key is for).
 */
export function RecoveryKeyGate({ held = false, recoverySaved }: { held?: boolean; recoverySaved: KeysApi['recoverySaved'] }) {
  const store = useE2eeStore();
  const { pendingRecovery } = useE2eeState();
  if (!pendingRecovery || held) return null;
  return (
    <RecoveryKeyModal
      key={pendingRecovery.recoveryKey}
      pending={pendingRecovery}
      onSaved={async () => {
        await recoverySaved(pendingRecovery.recoveryCt);
        store.clearRecoveryKey();
      }}
      onReplaced={() => {
        store.clearRecoveryKey();
        toast.error(T.recoveryReplaced);
      }}
    />
  );
}

/** Mounted once at the root: the gate on the signed-in tRPC client; a tick refreshes the settings page's status. */
export function ConnectedRecoveryKeyGate({ held = false }: { held?: boolean }) {
  const api = useKeysApi();
  const utils = trpc.useUtils();
  const recoverySaved = (recoveryCt: string) => api.recoverySaved(recoveryCt).finally(() => void utils.keys.recoveryStatus.invalidate());
  return <RecoveryKeyGate held={held} recoverySaved={recoverySaved} />;
}
