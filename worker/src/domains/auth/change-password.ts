import type { User } from '@afterword/db/schema';
import type { z } from 'zod';
import type { ZChangePassword } from '../../contracts/auth';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { hashPassword } from '../../lib/kdf';
import { hasKeys } from '../e2ee/key-bundles';
import { isCommonPassword } from './common-passwords';
import { confirmPassword } from './confirm-password';

export const PASSWORD_CHANGE_ERRORS = {
  noPassword: 'This account signs in with Google and has no password yet. Use “Forgot password” to set one.',
  wrongCurrent: 'The current password is not correct',
  samePassword: 'The new password must be different from the current one',
  common: 'This password is too common. Choose one that is harder to guess.',
  wrapRequired:
    'This account has encryption keys: send password_wrap (your private key re-wrapped under the new password), or the keys could no longer be opened with it',
  noKeysToWrap: 'This account has no encryption keys to re-wrap; create them with PUT /api/keys/me',
} as const;

/** How a wrong or missing current password is refused (a password change, a new recovery key). */
export const CURRENT_PASSWORD_REFUSAL = {
  field: 'current_password',
  noPassword: PASSWORD_CHANGE_ERRORS.noPassword,
  wrong: PASSWORD_CHANGE_ERRORS.wrongCurrent,
};

/**
 * POST /api/auth/password: the signed-in user changes their password. A wrong current password is a
 * 422 on that field (a 401 would read as "session expired") and counts as a failed sign-in, so a stolen
 * session cannot guess it faster than the login form. The new hash, the re-wrapped private key and the
 * revocation of the user's other sessions are one D1 batch, each statement guarded by "the password is
 * still the one we verified": all of it lands, or none (409 when another change won the race).
 */
export async function changePassword(
  ctx: ServiceContext,
  user: User,
  sessionId: string,
  input: z.output<typeof ZChangePassword>,
  clientAddress: string,
): Promise<{ ok: true }> {
  await confirmPassword(ctx, user, input.current_password, clientAddress, CURRENT_PASSWORD_REFUSAL);
  if (isCommonPassword(input.new_password)) throw bodyFieldError('new_password', PASSWORD_CHANGE_ERRORS.common, 'common_password');
  if (input.new_password.normalize('NFKC') === input.current_password.normalize('NFKC'))
    throw bodyFieldError('new_password', PASSWORD_CHANGE_ERRORS.samePassword, 'same_password');
  const keys = await hasKeys(ctx, user.id);
  if (keys && !input.password_wrap) throw bodyFieldError('password_wrap', PASSWORD_CHANGE_ERRORS.wrapRequired, 'missing');
  if (!keys && input.password_wrap) throw bodyFieldError('password_wrap', PASSWORD_CHANGE_ERRORS.noKeysToWrap, 'no_keys');

  const newHash = await hashPassword(input.new_password);
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  // ?1 user id, ?2 the hash we verified against.
  const unchanged = `(SELECT password_hash FROM users WHERE id = ?1) = ?2`;
  const statements: D1PreparedStatement[] = [];
  if (input.password_wrap) {
    statements.push(
      db
        .prepare(`UPDATE user_keys SET password_wrap = ?3, updated_at = ?4 WHERE user_id = ?1 AND ${unchanged}`)
        .bind(user.id, user.password_hash, JSON.stringify(input.password_wrap), now),
    );
  }
  statements.push(
    db
      .prepare(`UPDATE sessions SET revoked_at = ?3 WHERE user_id = ?1 AND id != ?4 AND revoked_at IS NULL AND ${unchanged}`)
      .bind(user.id, user.password_hash, now, sessionId),
  );
  statements.push(
    db.prepare(`UPDATE users SET password_hash = ?3, updated_at = ?4 WHERE id = ?1 AND password_hash = ?2`).bind(user.id, user.password_hash, newHash, now),
  );
  const results = await db.batch(statements);
  if (results.at(-1)!.meta.changes !== 1) throw new AppError('CONFLICT', 'Your password was changed at the same moment elsewhere. Sign in again and retry.');
  return { ok: true };
}
