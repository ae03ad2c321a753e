import type { User } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';
import { bodyFieldError } from '../../lib/errors';
import { verifyPassword } from '../../lib/kdf';
import { loginThrottleKeys, reserveLoginAttempt, settleLoginFailure, settleLoginSuccess } from './login-throttle';

/**
 * A signed-in person confirms an act with their password (a password change, a new recovery key, deleting
 * the account). Checked like a sign-in: a wrong one counts as a failed sign-in, so a stolen session cannot
 * guess it faster than the login form, and is a 422 on `field` (a 401 would read as "session expired");
 * the right one gives its throttle slot back at once, whatever the rest of the act says.
 */
export async function confirmPassword(
  ctx: ServiceContext,
  user: User,
  password: string,
  clientAddress: string,
  refusal: { field: string; noPassword: string; wrong: string },
): Promise<void> {
  if (!user.password_hash) throw bodyFieldError(refusal.field, refusal.noPassword, 'no_password');
  const throttle = await reserveLoginAttempt(ctx, await loginThrottleKeys(user.email, clientAddress));
  if (!(await verifyPassword(password, user.password_hash)).ok) {
    await settleLoginFailure(ctx, throttle);
    throw bodyFieldError(refusal.field, refusal.wrong, 'wrong_password');
  }
  await settleLoginSuccess(ctx, throttle);
}
