import type { User } from '@afterword/db/schema';
import type { z } from 'zod';
import type { ZReplaceRecoveryKey } from '../../contracts/auth';
import type { ServiceContext } from '../../env';
import { bodyFieldError } from '../../lib/errors';
import { hasKeys, NO_KEYS_YET, replaceRecoveryWrap } from '../e2ee/key-bundles';
import { CURRENT_PASSWORD_REFUSAL } from './change-password';
import { confirmPassword } from './confirm-password';

/**
 * PUT /api/keys/me/recovery: a new recovery key (made in the browser, which re-wrapped the private key
 * under it) replaces the old one, which stops working. Asked with the password, checked like a password
 * change's (a wrong one is a 422 on the field and counts as a failed sign-in), because whoever replaces
 * the recovery key decides who can reset the account's encryption. The new key is not saved yet: the app
 * shows it until the owner says they saved it (POST /api/keys/me/recovery/saved).
 */
export async function replaceRecoveryKey(ctx: ServiceContext, user: User, input: z.output<typeof ZReplaceRecoveryKey>, clientAddress: string) {
  await confirmPassword(ctx, user, input.current_password, clientAddress, CURRENT_PASSWORD_REFUSAL);
  if (!(await hasKeys(ctx, user.id))) throw bodyFieldError('recovery_wrap', NO_KEYS_YET, 'no_keys');
  return replaceRecoveryWrap(ctx, user.id, input.recovery_wrap);
}
