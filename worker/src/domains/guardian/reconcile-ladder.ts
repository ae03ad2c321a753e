import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { advanceLadder } from './advance-ladder';
import { completeDeathConfirmation } from './complete-confirmation';
import { enqueueGuardianNotices } from './guardian-notices';
import { syncGuardianClock } from './ladder-timer';

/** A timer this much past its time, or a job this long unfinished, counts as lost. */
export const LADDER_OVERDUE_MS = 30_000;
export const LADDER_JOB_LOST_AFTER_MS = 60_000;
const BATCH = 100;

/**
 * The every-minute repair of the ladder (the timer is an optimisation, the rows are the record): owners
 * with an open veto window whose GuardianClock is missing or overdue are advanced here (so a broken
 * object cannot stop the record) and their clock re-armed; confirmations whose follow-up never finished
 * are finished; guardian notices never sent are re-queued.
 */
export async function reconcileLadder(ctx: ServiceContext) {
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const counts = { timers: 0, confirmations: 0, notices: 0 };

  const { results: owners } = await db
    .prepare(
      `SELECT DISTINCT owner_id FROM death_reports
       WHERE status = 'open' AND window_opened_at IS NOT NULL AND (timer_due_at IS NULL OR timer_due_at <= ?1) LIMIT ${BATCH}`,
    )
    .bind(now - LADDER_OVERDUE_MS)
    .all<{ owner_id: string }>();
  for (const { owner_id } of owners) {
    await advanceLadder(ctx, owner_id, 'reconciler');
    await syncGuardianClock(ctx.env, owner_id);
    counts.timers++;
  }

  const { results: unfinished } = await db
    .prepare(`SELECT id FROM death_reports WHERE status = 'confirmed' AND effects_done_at IS NULL AND closed_at <= ?1 LIMIT ${BATCH}`)
    .bind(now - LADDER_JOB_LOST_AFTER_MS)
    .all<{ id: string }>();
  for (const { id } of unfinished) {
    await completeDeathConfirmation(ctx, id);
    counts.confirmations++;
  }

  const { results: notices } = await db
    .prepare(`SELECT id FROM guardian_notices WHERE status = 'pending' AND created_at <= ?1 LIMIT ${BATCH}`)
    .bind(now - LADDER_JOB_LOST_AFTER_MS)
    .all<{ id: string }>();
  await enqueueGuardianNotices(
    ctx,
    notices.map((n) => n.id),
  );
  counts.notices = notices.length;

  if (counts.timers || counts.confirmations || counts.notices) log.warn('ladder reconciler repaired', counts);
  return counts;
}
