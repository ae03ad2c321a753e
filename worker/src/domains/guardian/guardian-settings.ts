import { LIVE_GUARDIAN_STATUSES } from '../../contracts/guardian';
import { schema } from '@afterword/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { TGuardianSettings, TUpdateGuardianSettingsInput } from '../../contracts/guardian';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { runBatch } from '../../lib/db-batch';
import { loadSettings } from './ladder-records';

export const getGuardianSettings = (ctx: ServiceContext, ownerId: string) => loadSettings(ctx, ownerId);

/**
 * PUT /api/guardian/settings. A quorum above 1 must not exceed the guardians the owner has (invited or
 * active), or no report could ever reach it (422). The quorum is never lowered behind the owner's back
 * when a guardian leaves: the ladder view says when it cannot be reached. A changed veto window applies
 * to the next report; one already running keeps the end it was given.
 */
export async function updateGuardianSettings(ctx: ServiceContext, ownerId: string, input: TUpdateGuardianSettingsInput): Promise<TGuardianSettings> {
  const current = await loadSettings(ctx, ownerId);
  const next = { ...current, ...input };
  if (input.quorum !== undefined && input.quorum > 1) {
    const live = await ctx.db
      .select({ id: schema.guardians.id })
      .from(schema.guardians)
      .where(and(eq(schema.guardians.owner_id, ownerId), inArray(schema.guardians.status, [...LIVE_GUARDIAN_STATUSES])));
    if (input.quorum > live.length) {
      throw new AppError('UNPROCESSABLE', [
        { loc: ['body', 'quorum'], msg: `quorum must be at most the number of your guardians (${live.length} invited or active)`, type: 'quorum_too_high' },
      ]);
    }
  }
  const now = ctx.now();
  const t = schema.guardianSettings;
  await runBatch(ctx.db, [
    ctx.db
      .insert(t)
      .values({ owner_id: ownerId, ...next, updated_at: now })
      .onConflictDoUpdate({ target: t.owner_id, set: { ...next, updated_at: now } }),
    ctx.db.insert(schema.ladderTransitions).values({
      id: crypto.randomUUID(),
      owner_id: ownerId,
      kind: 'settings_changed',
      actor: 'owner',
      cause: 'owner_changed_settings',
      detail: `quorum ${next.quorum}, veto window ${next.veto_window_hours} h, guardians asked after ${next.ask_after_misses} missed check-in(s)`,
      at: now,
    }),
  ]);
  return next;
}
