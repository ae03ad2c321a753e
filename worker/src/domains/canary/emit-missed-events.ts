import { schema } from '@afterword/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { log } from '../../lib/logger';

type Transition = typeof schema.canaryTransitions.$inferSelect;
type Canary = typeof schema.canaries.$inferSelect;

export const QUEUE_BATCH_LIMIT = 100;

/** The event releases, webhooks and notifications consume (JOBS queue). */
export interface MissedCheckinsEvent {
  type: 'missed_checkins';
  /** The transition's id: consumers deduplicate on it. */
  event_id: string;
  user_id: string;
  canary_id: string;
  misses: number;
  deadline: string;
  fired_at: string;
}

export function toMissedEvent(t: Transition): MissedCheckinsEvent {
  return {
    type: 'missed_checkins',
    event_id: t.id,
    user_id: t.user_id,
    canary_id: t.canary_id,
    misses: t.misses,
    deadline: t.cycle_deadline.toISOString(),
    fired_at: t.fired_at.toISOString(),
  };
}

/**
 * Sends the misses of the canary's current cycle that count by `now` and were not sent yet, then
 * marks them. Sent before marked: a crash in between re-sends (consumers deduplicate on event_id)
 * rather than loses. A miss of an earlier cycle is never sent — a check-in ended that cycle.
 */
export async function emitCountedMisses(ctx: ServiceContext, canary: Canary, recorded: Transition[], now: number) {
  const currentCycle = canary.last_check_in.getTime() + canary.interval_seconds * 1000;
  const due = recorded
    .filter((t) => t.kind === 'missed' && !t.emitted_at && t.counts_from && t.counts_from.getTime() <= now)
    .filter((t) => t.cycle_deadline.getTime() === currentCycle)
    .sort((a, b) => a.misses - b.misses);
  if (!due.length) return 0;
  // Queues take at most 100 messages per sendBatch.
  for (let i = 0; i < due.length; i += QUEUE_BATCH_LIMIT) {
    await ctx.env.JOBS.sendBatch(due.slice(i, i + QUEUE_BATCH_LIMIT).map((t) => ({ body: toMissedEvent(t), contentType: 'json' as const })));
  }
  await runBatch(
    ctx.db,
    due.map((t) =>
      ctx.db
        .update(schema.canaryTransitions)
        .set({ emitted_at: new Date(now) })
        .where(and(eq(schema.canaryTransitions.id, t.id), isNull(schema.canaryTransitions.emitted_at))),
    ),
  );
  for (const t of due) {
    log.info('missed_checkins emitted', { canary_id: t.canary_id, misses: t.misses, late_ms: now - t.due_at.getTime() });
  }
  return due.length;
}
