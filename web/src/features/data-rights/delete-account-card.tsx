import { ACCOUNT_DELETION_DELAY_MS } from '@afterword/worker/contracts/account';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { Skeleton } from '../../components/skeleton';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { formatDateTime } from '../../lib/format-time';
import { T } from './texts';
import { ErrorState } from '../../components/error-state';

const whenDeleted = () => formatDateTime(new Date(Date.now() + ACCOUNT_DELETION_DELAY_MS).toISOString());

/**
 * Asking for the account's deletion (POST /api/account/delete, 7 days ahead, with the password) and
 * cancelling it. While one is scheduled the card says when, and offers only Cancel.
 */
export function DeleteAccountCard() {
  const utils = trpc.useUtils();
  const deletions = trpc.legal.deletions.useQuery();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const refresh = () => utils.legal.deletions.invalidate();
  const request = trpc.account.requestDeletion.useMutation({
    onSuccess: async () => {
      setConfirming(false);
      setPassword('');
      toast.success(T.requested);
      await refresh();
    },
    onError: (err) => {
      setConfirming(false);
      const parsed = readApiError(err);
      setError(parsed.fieldIssues?.find((i) => i.path[0] === 'password')?.msg ?? parsed.detail ?? T.failed);
    },
  });
  // The password is checked before "are you sure?": a wrong one is said at once, under the field.
  const check = trpc.account.checkDeletionPassword.useMutation({
    onSuccess: () => setConfirming(true),
    onError: (err) => {
      const parsed = readApiError(err);
      setError(parsed.fieldIssues?.find((i) => i.path[0] === 'password')?.msg ?? parsed.detail ?? T.failed);
    },
  });
  const cancel = trpc.account.cancelDeletion.useMutation({
    onSuccess: async () => {
      toast.success(T.cancelled);
      await refresh();
    },
    onError: (err) => void toast.error(readApiError(err).detail ?? T.failed),
  });

  function ask(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (!password) {
      setError('Enter your password to confirm');
      return;
    }
    check.mutate({ password });
  }

  const requested = deletions.data?.items.find((i) => i.reason === 'request');
  return (
    <Card title={T.deleteTitle}>
      <p>{T.deleteIntro}</p>
      {deletions.isPending ? (
        <Skeleton lines={2} label="Loading your scheduled deletions" />
      ) : deletions.isError ? (
        <ErrorState title={T.loadFailed} read={deletions} />
      ) : requested ? (
        <div className="stack">
          <p role="status">{T.scheduled(formatDateTime(requested.deletion_date))}</p>
          <div className="button-row">
            <Button onClick={() => cancel.mutate()} disabled={cancel.isPending}>
              {T.cancelButton}
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={ask} noValidate aria-label={T.deleteTitle}>
          <TextField
            label={T.passwordLabel}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={error}
          />
          <div className="button-row">
            <Button type="submit" variant="danger" disabled={request.isPending || check.isPending}>
              {T.deleteButton}
            </Button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={T.confirmTitle}
        description={T.confirmBody(whenDeleted())}
        confirmLabel={T.confirmLabel}
        confirmVariant="danger"
        pending={request.isPending}
        onConfirm={() => request.mutate({ password })}
      />
    </Card>
  );
}
