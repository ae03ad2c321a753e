import { schema } from '@afterword/db';
import type { Canary, User } from '@afterword/db/schema';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { canaryLabel, type ZCreateCanaryInput } from '../../contracts/canary';
import { PLAN_LIMITS } from '../../contracts/plans';
import type { ServiceContext } from '../../env';
import { isKeyClash, keyAndDigestOf, keyedRow } from '../../lib/create-retry';
import { AppError } from '../../lib/errors';
import { ifInserted, insertWithinLimits, type Limit, wrote } from '../../lib/limited-insert';
import { canaryTokenHash, legacyCanaryToken } from './canary-token';
import { armCanaryTimer } from './canary-timer';
import { cadenceOf } from './update-canary';
import { toCanaryView } from './canary-view';

function planLimitError(user: User, limit: number) {
  const plan = PLAN_LIMITS[user.plan].name;
  const upgrade = user.plan === 'free' ? 'Upgrade to Plus for 3 canaries, or to Pro for unlimited canaries.' : 'Upgrade to Pro for unlimited canaries.';
  return new AppError('FORBIDDEN', `Your ${plan} plan allows ${limit} ${limit === 1 ? 'canary' : 'canaries'}. ${upgrade}`);
}

/** The plan's canary limit, held by the insert itself (lib/limited-insert.ts). */
export const canaryLimit = (user: Pick<User, 'id' | 'plan'>): Limit => ({
  count: 'SELECT count(*) FROM canaries WHERE user_id = ?',
  params: [user.id],
  max: PLAN_LIMITS[user.plan].canaries,
});

/**
 * A new canary starts its first cycle now (docs/server-rules.md "Canaries and check-ins": last_check_in =
 * created_at) with its timer armed. With an `idempotency_key`, a call sent again after its answer was lost gets
 * the canary the first try wrote (its timer armed again, should the first try have died before) instead of a
 * second canary or the plan's limit (docs/decisions/create-retries.md).
 */
export async function createCanary(ctx: ServiceContext, user: User, input: z.output<typeof ZCreateCanaryInput>) {
  // No look-up first: a try sent again is refused by the write itself — by the key's unique index, or by the plan's
  // limit when its own first try took the last place — and then reads the canary its key names.
  const retry = input.idempotency_key ? await keyAndDigestOf(input) : null;
  const limit = canaryLimit(user);
  const now = ctx.now();
  const id = crypto.randomUUID();
  const row = {
    id,
    user_id: user.id,
    name: input.name,
    ...cadenceOf(input.interval_seconds, input.schedule ?? null),
    // D1 keeps the MAC-only form's hash, so tokens from before v2 are found (canary-token.ts).
    token_hash: await canaryTokenHash(await legacyCanaryToken(ctx.env, id, 1)),
    token_version: 1,
    active: true,
    last_check_in: now,
    timer_due_at: null,
    created_at: now,
    paused_until: null,
    create_key: retry?.key ?? null,
    create_digest: retry?.digest ?? null,
  };
  const db = ctx.env.DB;
  let created: D1Result | undefined;
  try {
    [created] = await db.batch([
      insertWithinLimits(db, 'canaries', row, [limit]),
      insertWithinLimits(
        db,
        'activity',
        {
          id: crypto.randomUUID(),
          user_id: user.id,
          canary_id: id,
          kind: 'canary_created',
          source: 'web',
          summary: `Created canary "${canaryLabel(input.name)}".`,
          created_at: now,
        },
        [],
        ifInserted('canaries', id),
      ),
    ]);
  } catch (err) {
    // Another try of this create wrote first (the key's unique index): its canary is the answer (409 for another input).
    const raced = retry && isKeyClash(err, 'canaries', 'user_id') ? await canaryOfKey(ctx, user.id, retry) : null;
    if (raced) return armedAgain(ctx, raced);
    throw err;
  }
  if (!wrote(created)) {
    // This create's earlier try, or one racing it, may have taken the plan's last place with this very canary.
    const raced = retry ? await canaryOfKey(ctx, user.id, retry) : null;
    if (raced) return armedAgain(ctx, raced);
    throw planLimitError(user, limit.max);
  }
  await armCanaryTimer(ctx.env, id);
  return toCanaryView(ctx, row);
}

/** The owner's canary an earlier try with this key wrote, or null; 409 when that try came with another input. */
async function canaryOfKey(ctx: ServiceContext, userId: string, retry: { key: string; digest: string }): Promise<Canary | null> {
  const [found] = await ctx.db
    .select()
    .from(schema.canaries)
    .where(and(eq(schema.canaries.user_id, userId), eq(schema.canaries.create_key, retry.key)))
    .limit(1);
  return keyedRow(found, retry.digest, 'canary');
}

/** The earlier try's canary, its timer armed again (the first try may have died before it did: safe to repeat). */
async function armedAgain(ctx: ServiceContext, canary: Canary) {
  await armCanaryTimer(ctx.env, canary.id);
  return toCanaryView(ctx, canary);
}
