import type { TLoginResult } from '@afterword/worker/contracts/auth';
import { useMemo, useState } from 'react';
import { Button } from '../../components/button';
import { readApiError } from '../../lib/api-error';
import { useHydrated } from '../../lib/use-hydrated';
import { getPasskeyAssertion, PasskeyCancelled, passkeyUnavailableReason } from './passkey-browser';

interface PasskeySignInProps {
  /** POST /api/auth/passkey/options. */
  start: () => Promise<{ challenge_id: string; options: Record<string, unknown> }>;
  /** POST /api/auth/passkey. */
  finish: (answer: { challenge_id: string; response: Record<string, unknown> }) => Promise<TLoginResult>;
  onSignedIn: (session: TLoginResult) => void;
}

/** The login page's "Sign in with a passkey": no email, no password; the passkey names the account. */
export function PasskeySignIn({ start, finish, onSignedIn }: PasskeySignInProps) {
  // Prerendered /login (web/scripts/prerender.mjs) shows the button, disabled until hydrated: the browser's
  // support is known only then, and most browsers have it.
  const hydrated = useHydrated();
  const unavailable = useMemo(() => (hydrated ? passkeyUnavailableReason() : null), [hydrated]);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (unavailable) return null;

  async function signIn() {
    setError(null);
    setPending(true);
    try {
      const challenge = await start();
      const response = await getPasskeyAssertion(challenge.options);
      onSignedIn(await finish({ challenge_id: challenge.challenge_id, response }));
    } catch (err) {
      if (!(err instanceof PasskeyCancelled)) setError(readApiError(err).detail ?? 'Could not sign in with a passkey. Please try again.');
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="stack">
      {error ? <p role="alert">{error}</p> : null}
      <Button variant="secondary" className="button--block" onClick={signIn} disabled={pending || !hydrated} aria-busy={pending}>
        {pending ? 'Waiting for your device…' : 'Sign in with a passkey'}
      </Button>
    </div>
  );
}
