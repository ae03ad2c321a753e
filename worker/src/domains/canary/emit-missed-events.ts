import { schema } from '@afterword/db';
import { and, inArray, isNull } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';

type Transition = typeof schema.canaryTransitions.$inferSelect;
type Canary = typeof schema.canaries.$inferSelect;

export const QUEUE_BATCH_LIMIT = 100;
const MARK_CHUNK = 90;

/** The event releases, webhooks and notifications consume (JOBS queue). */
export type { MissedCheckinsEvent } from '../../contracts/jobs';
import type { MissedCheckinsEvent } from '../../contracts/jobs';

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
 * Sends the misses of the canary's current cycle that count by `now` and were not sent yet, and
 * returns the statements that mark them sent, for the caller's next batch. Sent before marked: a
 * crash in between re-sends (consumers deduplicate on event_id) rather than loses. A miss of an
 * earlier cycle is never sent — a check-in ended that cycle.
 */
export async function emitCountedMisses(ctx: ServiceContext, canary: Canary, recorded: Transition[], now: number): Promise<BatchItem<'sqlite'>[]> {
  const currentCycle = canary.last_check_in.getTime() + canary.interval_seconds * 1000;
  const due = recorded
    .filter((t) => t.kind === 'missed' && !t.emitted_at && t.counts_from && t.counts_from.getTime() <= now)
    .filter((t) => t.cycle_deadline.getTime() === currentCycle)
    .sort((a, b) => a.misses - b.misses);
  if (!due.length) return [];
  // Queues take at most 100 messages per sendBatch.
  for (let i = 0; i < due.length; i += QUEUE_BATCH_LIMIT) {
    await ctx.env.JOBS.sendBatch(due.slice(i, i + QUEUE_BATCH_LIMIT).map((t) => ({ body: toMissedEvent(t), contentType: 'json' as const })));
  }
  for (const t of due) {
    log.info('missed_checkins emitted', { canary_id: t.canary_id, misses: t.misses, late_ms: now - t.due_at.getTime() });
  }
  // D1 binds at most 100 parameters per statement: mark in chunks.
  const marks: BatchItem<'sqlite'>[] = [];
  for (let i = 0; i < due.length; i += MARK_CHUNK) {
    const ids = due.slice(i, i + MARK_CHUNK).map((t) => t.id);
    marks.push(
      ctx.db
        .update(schema.canaryTransitions)
        .set({ emitted_at: new Date(now) })
        .where(and(inArray(schema.canaryTransitions.id, ids), isNull(schema.canaryTransitions.emitted_at))),
    );
  }
  return marks;
}
