import { schema } from '@afterword/db';
import { and, eq, sql } from 'drizzle-orm';
import { createChannels } from '../../channels/registry';
import { PHONE_CODE_RESEND_SECONDS, PHONE_CODE_TTL_SECONDS, PHONE_CODES_PER_HOUR, type PhoneVerificationStarted } from '../../contracts/profile';
import { countInWindow } from '../../lib/rate-window';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { getProfile } from './profile-view';
import { hashVerificationCode, newVerificationCode } from './verification-code';

const HOUR_MS = 60 * 60_000;
const hourlyKey = (userId: string) => `phone-code:user:${userId}`;

function tooSoon(retryAfterMs: number, detail: (s: number) => string) {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('TOO_MANY_REQUESTS', detail(seconds), { 'Retry-After': String(seconds) });
}

/**
 * POST /api/profile/phone: texts a one-time code to `phone`. Only the code's hash is stored; the row
 * replaces any earlier attempt, and goes away again if the text could not be sent.
 */
export async function startPhoneVerification(ctx: ServiceContext, userId: string, phone: string): Promise<PhoneVerificationStarted> {
  const now = ctx.now();
  const nowMs = now.getTime();
  await assertHourlyAllowance(ctx, userId, nowMs);

  const code = newVerificationCode();
  const t = schema.phoneVerifications;
  const fields = {
    phone,
    code_hash: await hashVerificationCode(userId, phone, code),
    attempts: 0,
    expires_at: new Date(nowMs + PHONE_CODE_TTL_SECONDS * 1000),
    created_at: now,
  };
  // The resend rule is part of the upsert itself, so two quick requests cannot both send a text.
  const [row] = await ctx.db
    .insert(t)
    .values({ user_id: userId, ...fields })
    .onConflictDoUpdate({ target: t.user_id, set: fields, setWhere: sql`${t.created_at} <= ${nowMs - PHONE_CODE_RESEND_SECONDS * 1000}` })
    .returning({ created_at: t.created_at });
  if (!row) {
    const [current] = await ctx.db.select({ created_at: t.created_at }).from(t).where(eq(t.user_id, userId)).limit(1);
    const waitMs = (current?.created_at.getTime() ?? nowMs) + PHONE_CODE_RESEND_SECONDS * 1000 - nowMs;
    throw tooSoon(waitMs, (s) => `A code was just sent. Wait ${s} seconds before asking for another.`);
  }
  await countCode(ctx, userId, nowMs);

  const minutes = Math.round(PHONE_CODE_TTL_SECONDS / 60);
  const result = await createChannels(ctx).sms(phone, {
    idempotencyKey: `phone-verify:${userId}:${nowMs}`,
    // For the account that asked (the number is not yet proven theirs): locally they read the code in
    // their own outbox. The code only verifies this number on this account, so it gives them nothing
    // of anyone else's (docs/decisions/local-outbox.md).
    recipientUserId: userId,
    subject: 'Afterword verification code',
    text: `Your Afterword code is ${code}. It expires in ${minutes} minutes.`,
  });
  if (!result.ok) {
    // Only our own row: a newer request may have replaced it meanwhile.
    await ctx.db.delete(t).where(and(eq(t.user_id, userId), eq(t.created_at, now)));
    log.warn('phone code not sent', { user_id: userId, retryable: result.retryable, error: result.error });
    if (!result.retryable) {
      throw new AppError('UNPROCESSABLE', 'We could not send a text to that number. Check it and try again.');
    }
    throw new AppError('INTERNAL', 'We could not send the text message just now. Try again in a minute.');
  }

  return {
    ...(await getProfile(ctx, userId)),
    code_expires_at: fields.expires_at.toISOString(),
    resend_available_at: new Date(nowMs + PHONE_CODE_RESEND_SECONDS * 1000).toISOString(),
  };
}

async function assertHourlyAllowance(ctx: ServiceContext, userId: string, nowMs: number) {
  const [limit] = await ctx.db
    .select()
    .from(schema.rateLimits)
    .where(eq(schema.rateLimits.key, hourlyKey(userId)))
    .limit(1);
  const endsAt = limit?.window_ends_at.getTime() ?? 0;
  if (limit && endsAt > nowMs && limit.count >= PHONE_CODES_PER_HOUR) {
    throw tooSoon(endsAt - nowMs, (s) => `Too many codes requested. Try again in ${Math.ceil(s / 60)} minutes.`);
  }
}

/** One more code in this account's hourly window (a window that has ended starts again at 1). */
async function countCode(ctx: ServiceContext, userId: string, nowMs: number) {
  await countInWindow(ctx.db, hourlyKey(userId), nowMs, HOUR_MS);
}
