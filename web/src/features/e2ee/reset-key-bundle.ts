import type { PasswordResetInspection, TPasswordResetConfirm } from '@afterword/worker/contracts/auth';
import { createKeyBundle, rewrapPrivateKey } from '../../crypto';

/** A whole new bundle's recovery key (and its wrap's `ct`), to show once. */
export interface NewRecoveryKey {
  recoveryKey: string;
  recoveryCt: string;
}

/** What the reset does to the account's keys: none to keep, re-wrap them with the recovery key, or replace them. */
export type ResetKeys = { kind: 'no-keys' } | { kind: 'recovery-key'; recoveryKey: string } | { kind: 'new-keys' };

/**
 * The reset call's input. With the recovery key, the same private key is re-wrapped under the new password in
 * the browser; without it, a whole new bundle replaces the old one, and its recovery key comes back to be shown.
 */
export async function resetConfirmInput(
  token: string,
  password: string,
  recoveryWrap: PasswordResetInspection['recovery_wrap'],
  keys: ResetKeys,
): Promise<{ input: TPasswordResetConfirm; newRecoveryKey: NewRecoveryKey | null }> {
  const input: TPasswordResetConfirm = { token, new_password: password };
  if (keys.kind === 'recovery-key') {
    const password_wrap = await rewrapPrivateKey(recoveryWrap, { recoveryKey: keys.recoveryKey }, { password });
    return { input: { ...input, key_bundle: { password_wrap } }, newRecoveryKey: null };
  }
  if (keys.kind === 'new-keys') {
    const fresh = await createKeyBundle(password);
    return { input: { ...input, key_bundle: fresh.bundle }, newRecoveryKey: { recoveryKey: fresh.recoveryKey, recoveryCt: fresh.bundle.recovery_wrap.ct } };
  }
  return { input, newRecoveryKey: null };
}
