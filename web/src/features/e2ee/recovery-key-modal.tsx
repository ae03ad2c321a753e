import { useId, useState } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Modal } from '../../components/modal';
import { recoveryKeyFileText } from '../../crypto';
import { copyText } from '../../lib/clipboard';
import { useE2eeState, useE2eeStore, type PendingRecoveryKey } from './key-store';
import { T } from './texts';

interface RecoveryKeyModalProps {
  pending: PendingRecoveryKey;
  onClose: () => void;
}

/**
 * The recovery key of a new key bundle, shown once: copy, download as .txt, and a tick that it is
 * saved before Close works. Escape and clicks outside do nothing until then.
 */
export function RecoveryKeyModal({ pending, onClose }: RecoveryKeyModalProps) {
  const [saved, setSaved] = useState(false);
  const hintId = useId();

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
        if (!open && saved) onClose();
      }}
      title={T.recoveryTitle}
      description={T.recoveryIntro}
      footer={
        <Button onClick={onClose} disabled={!saved} aria-describedby={saved ? undefined : hintId}>
          {T.recoveryClose}
        </Button>
      }
    >
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
      <CheckboxField label={T.recoverySaved} checked={saved} onChange={(e) => setSaved(e.target.checked)} />
      {saved ? null : (
        <p id={hintId} className="field__hint">
          {T.recoveryCloseHint}
        </p>
      )}
    </Modal>
  );
}

/** Mounted once at the root: shows a queued recovery key wherever the user is, then forgets it. */
/** `held`: something must be read first (a newcomer's welcome, which says what the key is for). */
export function RecoveryKeyGate({ held = false }: { held?: boolean }) {
  const store = useE2eeStore();
  const { pendingRecovery } = useE2eeState();
  if (!pendingRecovery || held) return null;
  return <RecoveryKeyModal key={pendingRecovery.recoveryKey} pending={pendingRecovery} onClose={() => store.clearRecoveryKey()} />;
}
