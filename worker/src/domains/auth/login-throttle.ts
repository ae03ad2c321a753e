import { schema } from '@afterword/db';
import { inArray, sql } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { hashSecret } from '../../lib/secrets';

/**
 * Failed-login limits (DESIGN section 1). Fixed windows in D1, so every isolate sees one count.
 * Per email: slows guessing one account; per address: slows spraying many accounts from one place.
 * A window ends on its own, so the real owner is never locked out for good.
 */
export const LOGIN_LIMITS = {
  email: { max: 5, windowMs: 15 * 60_000 },
  address: { max: 30, windowMs: 15 * 60_000 },
} as const;

export async function loginThrottleKeys(email: string, address: string) {
  // The email is hashed so the table holds no addresses of people who never registered.
  return { email: `login:email:${await hashSecret(email)}`, address: `login:ip:${address}` };
}

type Keys = Awaited<ReturnType<typeof loginThrottleKeys>>;

/** 429 with Retry-After when either limit is used up for the current window. */
export async function assertLoginAllowed(ctx: ServiceContext, keys: Keys) {
  const now = ctx.now().getTime();
  const rows = await ctx.db
    .select()
    .from(schema.rateLimits)
    .where(inArray(schema.rateLimits.key, [keys.email, keys.address]));
  for (const row of rows) {
    const limit = row.key === keys.email ? LOGIN_LIMITS.email : LOGIN_LIMITS.address;
    const endsAt = row.window_ends_at.getTime();
    if (endsAt > now && row.count >= limit.max) {
      const retryAfter = Math.max(1, Math.ceil((endsAt - now) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `Too many failed sign-in attempts. Try again in ${retryAfter} seconds.`, {
        'Retry-After': String(retryAfter),
      });
    }
  }
}

/** Counts one failure against both keys (an atomic upsert that restarts an expired window). */
export async function recordLoginFailure(ctx: ServiceContext, keys: Keys) {
  const now = ctx.now().getTime();
  const bump = (key: string, windowMs: number) =>
    ctx.db
      .insert(schema.rateLimits)
      .values({ key, count: 1, window_ends_at: new Date(now + windowMs) })
      .onConflictDoUpdate({
        target: schema.rateLimits.key,
        set: {
          count: sql`CASE WHEN ${schema.rateLimits.window_ends_at} <= ${now} THEN 1 ELSE ${schema.rateLimits.count} + 1 END`,
          window_ends_at: sql`CASE WHEN ${schema.rateLimits.window_ends_at} <= ${now} THEN excluded.window_ends_at ELSE ${schema.rateLimits.window_ends_at} END`,
        },
      });
  await ctx.db.batch([bump(keys.email, LOGIN_LIMITS.email.windowMs), bump(keys.address, LOGIN_LIMITS.address.windowMs)]);
}

/** A good login clears its email's count (the address count stays: it guards other accounts). */
export async function clearLoginFailures(ctx: ServiceContext, keys: Keys) {
  await ctx.db.delete(schema.rateLimits).where(inArray(schema.rateLimits.key, [keys.email]));
}
