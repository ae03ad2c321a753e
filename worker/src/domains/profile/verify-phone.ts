import { schema } from '@afterword/db';
import { and, eq, gt, gte, lt, lte, or, sql } from 'drizzle-orm';
import { PHONE_CODE_MAX_ATTEMPTS, type ProfileView } from '../../contracts/profile';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { getProfile } from './profile-view';
import { hashVerificationCode, sameHash } from './verification-code';

export const WRONG_CODE = 'That code is not right';
export const LAST_WRONG_CODE = 'That code is not right, and that was the last try. Request a new code.';
export const CODE_EXPIRED = 'That code has expired. Request a new code.';
export const CODE_EXHAUSTED = 'Too many wrong codes. Request a new code.';
export const NO_CODE_PENDING = 'No code is waiting to be checked. Request a new code.';

const invalid = (detail: string) => new AppError('UNPROCESSABLE', detail);

/**
 * POST /api/profile/phone/verify: a right code makes the number the account's verified phone. An
 * attempt is spent before the comparison, so parallel guesses each cost one and the limit holds.
 */
export async function verifyPhone(ctx: ServiceContext, userId: string, code: string): Promise<ProfileView> {
  const now = ctx.now();
  const t = schema.phoneVerifications;
  const [row] = await ctx.db
    .update(t)
    .set({ attempts: sql`${t.attempts} + 1` })
    .where(and(eq(t.user_id, userId), gt(t.expires_at, now), lt(t.attempts, PHONE_CODE_MAX_ATTEMPTS)))
    .returning();
  if (!row) throw await spentVerification(ctx, userId, now);

  const ours = and(eq(t.user_id, userId), eq(t.created_at, row.created_at));
  if (!sameHash(row.code_hash, await hashVerificationCode(userId, row.phone, code))) {
    if (row.attempts < PHONE_CODE_MAX_ATTEMPTS) throw invalid(WRONG_CODE);
    await ctx.db.delete(t).where(ours);
    throw invalid(LAST_WRONG_CODE);
  }

  await ctx.db.batch([
    ctx.db.update(schema.users).set({ phone_e164: row.phone, phone_verified_at: now, updated_at: now }).where(eq(schema.users.id, userId)),
    ctx.db.delete(t).where(ours),
  ]);
  return getProfile(ctx, userId);
}

/** No live code: clears a dead one and says why, so the user knows to ask again. */
async function spentVerification(ctx: ServiceContext, userId: string, now: Date) {
  const t = schema.phoneVerifications;
  const [dead] = await ctx.db
    .delete(t)
    .where(and(eq(t.user_id, userId), or(lte(t.expires_at, now), gte(t.attempts, PHONE_CODE_MAX_ATTEMPTS))))
    .returning({ expires_at: t.expires_at });
  if (!dead) return invalid(NO_CODE_PENDING);
  return invalid(dead.expires_at.getTime() <= now.getTime() ? CODE_EXPIRED : CODE_EXHAUSTED);
}
