import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { toast } from '../../components/toast';
import { e2eeStore } from '../../features/e2ee/key-store';
import { keysApiFromClient, setUpKeysAfterSignIn } from '../../features/e2ee/keys-api';
import { loadRecoveryGate } from '../../features/e2ee/recovery-gate-loader';
import { ResetPasswordFlow, type ResetApi, type ResetResult } from '../../features/e2ee/reset-password-flow';
import { T } from '../../features/e2ee/texts';
import { setToken } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';

interface ResetSearch {
  token?: string;
}

export const Route = createFileRoute('/_public/reset-password')({
  validateSearch: (search: Record<string, unknown>): ResetSearch => ({
    token: typeof search.token === 'string' ? search.token : undefined,
  }),
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  usePageTitle('Reset password');
  const { token = '' } = Route.useSearch();
  const { trpcClient } = Route.useRouteContext();
  const navigate = useNavigate();
  const api = useMemo<ResetApi>(
    () => ({
      inspect: (t) => trpcClient.auth.inspectPasswordReset.mutate({ token: t }),
      confirm: (input) => trpcClient.auth.confirmPasswordReset.mutate(input),
    }),
    [trpcClient],
  );

  /** The reset signed every session out: sign in with the new password, unlock, and show a new recovery key once. */
  async function afterReset({ email, password, newRecoveryKey }: ResetResult) {
    e2eeStore.reset();
    // The recovery key this shows opens with the page, not a moment after it.
    await loadRecoveryGate();
    // The new recovery key is shown once signed in again: its "saved" tick is recorded with the new session
    // (the reset revoked the old one, and a call with it would sign the person out).
    try {
      const { access_token } = await trpcClient.auth.login.mutate({ email, password });
      setToken(access_token);
    } catch {
      if (newRecoveryKey) e2eeStore.showRecoveryKey({ email, ...newRecoveryKey });
      toast(`${T.resetDone} ${T.resetSignIn}.`);
      return;
    }
    if (newRecoveryKey) e2eeStore.showRecoveryKey({ email, ...newRecoveryKey });
    // A reset that made new keys is showing their recovery key already: the person may tick it saved while
    // this runs, so it must not be replaced by one made from the bundle as it was read before the tick.
    await setUpKeysAfterSignIn(keysApiFromClient(trpcClient), e2eeStore, password, { renewUnsavedRecovery: !newRecoveryKey }).catch((error: unknown) =>
      console.warn('Signed in, but the encryption keys could not be unlocked', error),
    );
    toast.success(T.resetDone);
    await navigate({ to: '/app' });
  }

  return (
    <div className="auth-page">
      <h1>{T.resetTitle}</h1>
      <ResetPasswordFlow token={token} api={api} onReset={afterReset} />
    </div>
  );
}
