import type { TCheckInLink, TCheckInResult } from '@afterword/worker/contracts/canary';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Time } from '../../components/time';
import { readApiError } from '../../lib/api-error';

export type CheckInLinkLookup = { kind: 'loading' } | { kind: 'not-found' } | { kind: 'failed' } | { kind: 'found'; link: TCheckInLink };

interface CheckInLinkViewProps {
  lookup: CheckInLinkLookup;
  /** Presses the button: POST /api/check-in-links/{token}. */
  onCheckIn: () => Promise<TCheckInResult>;
}

const SIGN_IN = (
  <p>
    <Link to="/login">Sign in</Link> to check in from Canary Status.
  </p>
);

/**
 * The page a canary warning's link opens: one button, because only pressing it checks in (a link-preview bot
 * that fetches the page changes nothing). Then when the next check-in is due.
 */
export function CheckInLinkView({ lookup, onCheckIn }: CheckInLinkViewProps) {
  const [done, setDone] = useState<TCheckInResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  if (lookup.kind === 'loading') return <p aria-busy="true">Reading the link…</p>;
  if (lookup.kind === 'not-found')
    return (
      <>
        <p>This check-in link is not valid: it may be mistyped, or its canary was deleted.</p>
        {SIGN_IN}
      </>
    );
  if (lookup.kind === 'failed')
    return (
      <>
        <p role="alert">We could not read this link just now. Please reload the page to try again.</p>
        {SIGN_IN}
      </>
    );
  const { link } = lookup;
  if (done) {
    const deadline = done.canaries[0]?.deadline;
    return (
      <div role="status">
        <p>
          <strong>Checked in.</strong> Your canary “{link.canary_name}” is running again
          {deadline ? (
            <>
              : the next check-in is due by <Time value={deadline} />.
            </>
          ) : (
            '.'
          )}
        </p>
        <p>Whatever waits for a missed check-in of this canary keeps waiting.</p>
      </div>
    );
  }
  if (link.state === 'used')
    return (
      <>
        <p>
          This link was already used
          {link.used_at ? (
            <>
              {' '}
              (<Time value={link.used_at} />)
            </>
          ) : null}
          : each warning’s link checks in once.
        </p>
        {SIGN_IN}
      </>
    );
  if (link.state === 'expired')
    return (
      <>
        <p>
          This link expired on <Time value={link.expires_at} />.
        </p>
        {SIGN_IN}
      </>
    );

  async function press() {
    setPending(true);
    setError(null);
    try {
      setDone(await onCheckIn());
    } catch (err) {
      setError(readApiError(err).detail ?? 'Could not check in. Please try again.');
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <p>
        Press the button to check in your canary “{link.canary_name}”. No sign-in is needed; this link works once, until <Time value={link.expires_at} />.
      </p>
      {error ? <p role="alert">{error}</p> : null}
      <Button onClick={press} disabled={pending} aria-busy={pending}>
        {pending ? 'Checking in…' : 'I’m here — check in'}
      </Button>
    </>
  );
}
