import type { User } from '@afterword/db/schema';
import type { z } from 'zod';
import { canaryLabel, type ZCreateCanaryInput } from '../../contracts/canary';
import { PLAN_LIMITS } from '../../contracts/plans';
import type { ServiceContext } from '../../env';
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
 * created_at) with its timer armed.
 */
export async function createCanary(ctx: ServiceContext, user: User, input: z.output<typeof ZCreateCanaryInput>) {
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
  };
  const db = ctx.env.DB;
  const [created] = await db.batch([
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
  if (!wrote(created)) throw planLimitError(user, limit.max);
  await armCanaryTimer(ctx.env, id);
  return toCanaryView(ctx, row);
}
