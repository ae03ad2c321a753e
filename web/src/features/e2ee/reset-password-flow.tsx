import type { PasswordResetInspection, TPasswordResetConfirm } from '@afterword/worker/contracts/auth';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Skeleton } from '../../components/skeleton';
import { NewPasswordStep, useNewPasswordStep } from './new-password-step';
import { NoRecoveryKeyStep, useNoRecoveryConsent } from './no-recovery-key-step';
import { extractRecoveryKey, RecoveryKeyStep, useRecoveryKeyCheck } from './recovery-key-step';
import { type NewRecoveryKey, type ResetKeys, resetConfirmInput } from './reset-key-bundle';
import { T } from './texts';
import { useResetInspection } from './use-reset-inspection';

export { extractRecoveryKey };

export interface ResetApi {
  inspect(token: string): Promise<PasswordResetInspection>;
  confirm(input: TPasswordResetConfirm): Promise<unknown>;
}

export interface ResetResult {
  email: string;
  password: string;
  /** Set when the account got a whole new bundle: its recovery key (and its wrap's `ct`), to show once. */
  newRecoveryKey: NewRecoveryKey | null;
}

/**
 * /reset-password?token=…: with E2EE keys, the recovery key re-opens the same private key, re-wrapped
 * under the new password (everything stays readable); without it, after a plain warning and a tick,
 * a whole new bundle replaces the old one (what was sealed for it is lost). Without keys: just a password.
 */
export function ResetPasswordFlow({ token, api, onReset }: { token: string; api: ResetApi; onReset: (result: ResetResult) => Promise<void> | void }) {
  const inspection = useResetInspection(api, token);

  if (inspection.kind === 'loading') return <Skeleton lines={3} label={T.resetChecking} />;
  if (inspection.kind === 'invalid') {
    return (
      <div className="auth-form">
        <p role="alert" className="alert">
          {inspection.message}
        </p>
        <p className="auth-form__switch">
          <Link to="/forgot-password">{T.resetAskAgain}</Link>
        </p>
      </div>
    );
  }
  return <ResetForm token={token} info={inspection.info} api={api} onReset={onReset} />;
}

type Mode = 'recovery' | 'lost';

function ResetForm({
  token,
  info,
  api,
  onReset,
}: {
  token: string;
  info: PasswordResetInspection;
  api: ResetApi;
  onReset: (result: ResetResult) => Promise<void> | void;
}) {
  const hasKeys = info.has_keys && info.recovery_wrap !== null;
  const [mode, setMode] = useState<Mode>('recovery');
  const [done, setDone] = useState(false);
  const recovery = useRecoveryKeyCheck(info.recovery_wrap);
  const consent = useNoRecoveryConsent();
  const newPassword = useNewPasswordStep({
    keysAllowSubmit: () => consent.given(hasKeys && mode === 'lost'),
    save: async (password) => {
      let keys: ResetKeys = { kind: 'no-keys' };
      if (hasKeys && mode === 'recovery') {
        if (!recovery.accepted) {
          recovery.refuse();
          return;
        }
        keys = { kind: 'recovery-key', recoveryKey: recovery.accepted };
      } else if (hasKeys) {
        keys = { kind: 'new-keys' };
      }
      const { input, newRecoveryKey } = await resetConfirmInput(token, password, info.recovery_wrap, keys);
      await api.confirm(input);
      setDone(true);
      await onReset({ email: info.email, password, newRecoveryKey });
    },
  });

  if (done) {
    return (
      <div className="auth-form">
        <p role="status" className="note">
          {T.resetDone}
        </p>
        <p className="auth-form__switch">
          <Link to="/login">{T.resetSignIn}</Link>
        </p>
      </div>
    );
  }

  const passwordReady = !hasKeys || (mode === 'recovery' ? recovery.accepted !== null : true);

  return (
    <div className="auth-form reset-flow">
      <p className="muted">{T.resetFor(info.email)}</p>
      {hasKeys && mode === 'recovery' ? <RecoveryKeyStep recovery={recovery} onLost={() => setMode('lost')} /> : null}
      {hasKeys && mode === 'lost' ? <NoRecoveryKeyStep consent={consent} onHaveKey={() => setMode('recovery')} /> : null}
      {passwordReady ? <NewPasswordStep step={newPassword} /> : null}
    </div>
  );
}
