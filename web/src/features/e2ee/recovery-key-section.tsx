import type { RecoveryStatus } from '@afterword/worker/contracts/e2ee';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { formatDateTime } from '../../lib/format-time';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import { T } from './texts';

interface RecoveryKeySectionProps {
  /** Whether the caller has keys (without, there is no recovery key to make) and when it was saved. */
  status: RecoveryStatus;
  /** Makes a new recovery key with the password and queues it for the show-once dialog (keys-api.ts). */
  makeNew: (password: string) => Promise<void>;
}

/**
 * Settings → Recovery key: whether the current key was saved, and a new one at any time. The new key
 * replaces the old one, which stops working; the page says so before the button.
 */
export function RecoveryKeySection({ status, makeNew }: RecoveryKeySectionProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { pending, run, isBusy } = useSingleFlight();

  if (!status.has_keys) return <p>{T.recoveryNoKeys}</p>;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    if (!password) {
      setError(T.recoveryPasswordNeeded);
      return;
    }
    setError(null);
    await run(async () => {
      try {
        await makeNew(password);
        setPassword('');
      } catch (failure) {
        if ((failure as { code?: string }).code === 'wrong-key') {
          setError(T.wrongCurrentPassword);
          return;
        }
        const { fieldIssues, detail } = readApiError(failure);
        setError(fieldIssues?.[0]?.msg ?? detail ?? T.recoveryMakeFailed);
      }
    });
  }

  return (
    <form className="password-form" onSubmit={submit} noValidate aria-label={T.recoverySectionTitle}>
      <p>{status.recovery_saved_at ? T.recoverySavedOn(formatDateTime(status.recovery_saved_at)) : T.recoveryNotSaved}</p>
      <p className="muted">{T.recoveryMakeNewIntro}</p>
      <TextField
        label={T.currentPassword}
        name="recovery_password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error ?? undefined}
      />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? T.recoveryMaking : T.recoveryMakeNew}
      </Button>
    </form>
  );
}
