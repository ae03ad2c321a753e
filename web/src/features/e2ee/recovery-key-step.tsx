import type { PasswordResetInspection } from '@afterword/worker/contracts/auth';
import { useId, useState, type ChangeEvent } from 'react';
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { parseRecoveryKey, unwrapPrivateKey } from '../../crypto';
import { useSingleFlight } from '../../lib/use-single-flight';
import { T } from './texts';

/** The key from pasted text or an uploaded afterword-recovery-key.txt (the grouped line), else the text as is. */
export function extractRecoveryKey(text: string): string {
  const grouped = /(?:^|[^A-Z2-7-])((?:[A-Z2-7]{4}-){12}[A-Z2-7]{4})(?![A-Z2-7-])/i.exec(text);
  return grouped ? grouped[1]!.toUpperCase() : text.trim();
}

/**
 * The recovery key typed or uploaded, checked in the browser against the account's recovery wrap: `accepted`
 * holds it once it opens the private key. Kept by the reset form, so switching to "no recovery key" and back
 * loses nothing.
 */
export function useRecoveryKeyCheck(recoveryWrap: PasswordResetInspection['recovery_wrap']) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [accepted, setAccepted] = useState<string | null>(null);
  const checking = useSingleFlight();

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setText(extractRecoveryKey(await file.text()));
    setAccepted(null);
    setError(null);
  }

  async function check() {
    if (checking.isBusy()) return;
    await checking.run(async () => {
      setError(null);
      const typed = extractRecoveryKey(text);
      try {
        parseRecoveryKey(typed);
      } catch (failure) {
        setError(T.recoveryKeyMalformed((failure as Error).message));
        return;
      }
      try {
        await unwrapPrivateKey(recoveryWrap, { recoveryKey: typed });
        setAccepted(typed);
      } catch (failure) {
        setError((failure as { code?: string }).code === 'wrong-key' ? T.recoveryKeyWrong : T.resetFailed);
      }
    });
  }

  return {
    text,
    error,
    accepted,
    checking: checking.pending,
    type: (value: string) => {
      setText(value);
      setAccepted(null);
    },
    readFile,
    check,
    /** The reset was sent without an accepted key. */
    refuse: () => setError(T.recoveryKeyWrong),
  };
}

export type RecoveryKeyCheck = ReturnType<typeof useRecoveryKeyCheck>;

/** The first step of a reset with keys: the recovery key re-opens the private key, so everything stays readable. */
export function RecoveryKeyStep({ recovery, onLost }: { recovery: RecoveryKeyCheck; onLost: () => void }) {
  const fileId = useId();
  return (
    <section className="reset-flow__step" aria-label="Your encryption keys">
      <p>{T.resetKeysIntro}</p>
      <Field label={T.recoveryKeyLabel} hint={T.recoveryKeyHint} error={recovery.error}>
        {(control) => (
          <textarea
            className="input textarea"
            name="recovery_key"
            rows={3}
            spellCheck={false}
            autoComplete="off"
            value={recovery.text}
            onChange={(e) => recovery.type(e.target.value)}
            {...control}
          />
        )}
      </Field>
      <div className="field">
        <label className="field__label" htmlFor={fileId}>
          {T.recoveryKeyFile}
        </label>
        <input id={fileId} type="file" accept=".txt,text/plain" className="input" onChange={(e) => void recovery.readFile(e)} />
      </div>
      {recovery.accepted ? (
        <p role="status" className="note">
          {T.recoveryKeyAccepted}
        </p>
      ) : (
        <Button variant="secondary" onClick={() => void recovery.check()} disabled={recovery.checking}>
          {recovery.checking ? T.recoveryKeyChecking : T.recoveryKeyCheck}
        </Button>
      )}
      <p className="auth-form__switch">
        <Button variant="ghost" onClick={onLost}>
          {T.noRecoveryKey}
        </Button>
      </p>
    </section>
  );
}
