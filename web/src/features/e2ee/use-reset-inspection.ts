import type { PasswordResetInspection } from '@afterword/worker/contracts/auth';
import { useEffect, useRef, useState } from 'react';
import { readApiError } from '../../lib/api-error';
import { T } from './texts';

export type ResetInspection = { kind: 'loading' } | { kind: 'invalid'; message: string } | { kind: 'ready'; info: PasswordResetInspection };

/** What the reset link's token opens: the account's email and keys, or why the link no longer works. */
export function useResetInspection(api: { inspect(token: string): Promise<PasswordResetInspection> }, token: string): ResetInspection {
  const [inspection, setInspection] = useState<ResetInspection>({ kind: 'loading' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token) {
      setInspection({ kind: 'invalid', message: T.resetInvalid });
      return;
    }
    api.inspect(token).then(
      (info) => setInspection({ kind: 'ready', info }),
      (error: unknown) => setInspection({ kind: 'invalid', message: readApiError(error).detail ?? T.resetInvalid }),
    );
  }, [api, token]);

  return inspection;
}
