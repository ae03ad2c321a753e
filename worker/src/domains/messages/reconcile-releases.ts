import { schema } from '@afterword/db';
import { and, eq, inArray, isNotNull, isNull, lte, not, or, sql } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { consentWithdrawnSql } from '../legal/consent-state';
import { toMissedEvent } from '../canary/plan-wake';
import type { DeliverJob } from './delivery/deliver-message';
import { settleMessage } from './delivery/settle-message';
import type { OwnerNoticeJob } from '../../contracts/jobs';
import { syncReleaseTimer } from './release/release-timer';
import { needsClockSql, nextWakeAt } from './release/schedule';

/** A timer, job or lease this much past its time counts as lost. */
export const RELEASE_OVERDUE_MS = 30_000;
export const JOB_LOST_AFTER_MS = 60_000;
const BATCH = 200;

/**
 * Clocks and queues are the fast path, never the only record (the canary reconciler's rule, for
 * messages). Every minute: re-sync open messages whose alarm is overdue, and with `missingTimers` (every tenth
 * minute: scansLostTimers) those that need a clock and have none; re-send delivery
 * jobs and owner notices that should have run by now; settle messages left releasing by a crash; and, with
 * `lostEvents` (once an hour: scansLostEvents), re-send missed-check-ins events that never armed what they should have.
 * Messages paused by a withdrawn messages consent are left alone.
 */
export async function reconcileReleases(
  ctx: ServiceContext,
  opts: { lostEvents: boolean; missingTimers: boolean } = { lostEvents: true, missingTimers: true },
) {
  const now = ctx.now().getTime();
  const counts = { timers: 0, deliveries: 0, notices: 0, missedEvents: 0, releasingChecked: 0 };

  // Overdue: a clock whose alarm should have run (the timer index's range; every minute). Missing: an open message
  // that needs a clock and has none recorded (a sync that failed) — read every tenth minute (`missingTimers`), and
  // only those that need one: most open messages wait for a canary event or a death and have no timer, and until
  // 2026-11-29 they filled the batch, so past 200 of them no lost timer was ever repaired (the simulation at 1,000
  // people found releases missed for good).
  const repair = [...(await releaseTimersToRepair(ctx, 'overdue', now)), ...(opts.missingTimers ? await releaseTimersToRepair(ctx, 'missing', now) : [])];
  for (const { message, death } of repair) {
    // No timer is right for a message only a canary event can move (needsClockSql says the same).
    if (!message.timer_due_at && nextWakeAt(message, death) == null) continue;
    await syncReleaseTimer(ctx.env, message.id);
    counts.timers++;
  }

  const lostDeliveries = await ctx.db
    .select({ id: schema.deliveries.id })
    .from(schema.deliveries)
    .where(
      or(
        and(inArray(schema.deliveries.status, ['pending', 'retrying']), lte(schema.deliveries.next_attempt_at, new Date(now - JOB_LOST_AFTER_MS))),
        and(eq(schema.deliveries.status, 'sending'), lte(schema.deliveries.lease_until, new Date(now))),
      ),
    )
    .limit(BATCH);
  if (lostDeliveries.length) {
    await ctx.env.DELIVERIES.sendBatch(
      lostDeliveries.slice(0, 100).map((d) => ({ body: { type: 'deliver', delivery_id: d.id } satisfies DeliverJob, contentType: 'json' as const })),
    );
    counts.deliveries = Math.min(100, lostDeliveries.length);
  }

  // Once an hour (scansLostEvents): it reads every scheduled message with a miss rule.
  const lostMisses = opts.lostEvents ? await missedEventsNotActedOn(ctx, now - MISSED_EVENT_LOST_AFTER_MS) : [];
  if (lostMisses.length) {
    await ctx.env.JOBS.sendBatch(lostMisses.map((event) => ({ body: event, contentType: 'json' as const })));
    counts.missedEvents = lostMisses.length;
  }

  const lostNotices = await pendingNoticesDueBefore(ctx, now - JOB_LOST_AFTER_MS);
  if (lostNotices.length) {
    await ctx.env.JOBS.sendBatch(
      lostNotices.map((n) => ({ body: { type: 'owner_notice', notice_id: n.id } satisfies OwnerNoticeJob, contentType: 'json' as const })),
    );
    counts.notices = lostNotices.length;
  }

  const releasing = await ctx.db
    .select({ id: schema.messages.id })
    .from(schema.messages)
    .where(
      and(
        eq(schema.messages.status, 'releasing'),
        lte(schema.messages.updated_at, new Date(now - JOB_LOST_AFTER_MS)),
        // Only those settleMessage can finish: every delivery done. A message still being delivered (a provider down
        // for hours) stays releasing; 200 of them took every batch, and a crashed settle waited for them all.
        sql.raw(`EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = "messages"."id")`),
        sql.raw(`NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = "messages"."id" AND d.status NOT IN ('delivered', 'failed'))`),
      ),
    )
    .limit(BATCH);
  for (const { id } of releasing) {
    await settleMessage(ctx, id);
    counts.releasingChecked++;
  }
  if (counts.timers || counts.deliveries || counts.notices || counts.missedEvents) log.warn('release reconciler repaired', counts);
  return counts;
}

/**
 * Open messages (scheduled or armed) whose clock is to be re-synced, with their sender's death flag, 200 at most:
 * `which` says whose timer — overdue (the timer index's range), or missing where one is needed (the index's entries
 * of open messages with no timer, most of which need none: needsClockSql keeps those out of the batch). Messages
 * paused by their sender's withdrawn messages consent have no clock due (allowing it again re-syncs them).
 */
function releaseTimersToRepair(ctx: ServiceContext, which: 'overdue' | 'missing', now: number) {
  const timer =
    which === 'overdue'
      ? and(isNotNull(schema.messages.timer_due_at), lte(schema.messages.timer_due_at, new Date(now - RELEASE_OVERDUE_MS)))
      : and(isNull(schema.messages.timer_due_at), sql.raw(needsClockSql('"messages"', '"users"')));
  return ctx.db
    .select({ message: schema.messages, death: schema.users.death_confirmed_at })
    .from(schema.messages)
    .innerJoin(schema.users, eq(schema.users.id, schema.messages.sender_id))
    .where(and(inArray(schema.messages.status, ['scheduled', 'armed']), timer, not(sql.raw(consentWithdrawnSql('"messages"."sender_id"', 'messages')))))
    .limit(BATCH);
}

/**
 * Owner notices still pending that were due before `before` (at most 100): their job was lost. Read through
 * the partial index of pending notices (db/migrations/0038_pending_notices_index.sql), whose condition the
 * query states as a literal (`'pending'`, not a bound parameter): SQLite may use a partial index only when the
 * query implies its condition, and a literal does so without relying on the planner reading bound values.
 */
export function pendingNoticesDueBefore(ctx: ServiceContext, before: number) {
  return ctx.db
    .select({ id: schema.ownerNotices.id })
    .from(schema.ownerNotices)
    .where(and(sql`${schema.ownerNotices.status} = 'pending'`, lte(schema.ownerNotices.due_at, new Date(before))))
    .limit(100);
}

/**
 * A missed-check-ins event the queue took and then lost after its retries (dead-lettered) is sent again this
 * long after it was emitted: long enough for its own retries to have run, short of the hours a cancel window
 * or a grace period lasts.
 */
export const MISSED_EVENT_LOST_AFTER_MS = 15 * 60_000;

/**
 * The scan for lost missed-check-ins events runs once an hour, on the hour: it reads every scheduled message with
 * a miss rule, and every tenth minute that was more rows read than every other scan of the cron together (the
 * simulation's cost report, docs/performance.md). An event is lost only after the queue's ten retries, so an hour
 * more is a small part of the wait, and far inside a cancel window or a grace period.
 */
export const LOST_EVENT_SCAN_EVERY_MINUTES = 60;
export const scansLostEvents = (scheduledTime: number) => Math.floor(scheduledTime / 60_000) % LOST_EVENT_SCAN_EVERY_MINUTES === 0;

/**
 * The missed-check-ins events nothing acted on: per canary, its current cycle's highest miss emitted before
 * `before` while a `scheduled` message of its owner has a missed_checkins(N) rule that count satisfies (and
 * their messages consent stands) — the event would have armed it, so it never arrived. Sent again, it arms as
 * the first would have (its id is the arming's dedupe key, so a late original changes nothing). Found by the
 * simulation: a dead-lettered event left its message waiting for the next miss, a week later.
 */
export async function missedEventsNotActedOn(ctx: ServiceContext, before: number) {
  // From the scheduled messages with a miss rule (the status index), not from every timer event ever recorded.
  const { results } = await ctx.env.DB.prepare(
    `WITH waiting(sender_id, n) AS MATERIALIZED (
       SELECT m.sender_id, min(CAST(json_extract(r.value, '$.trigger_value') AS INTEGER))
       FROM messages m, json_each(m.rules) r
       WHERE m.status = 'scheduled' AND json_extract(r.value, '$.trigger_type') = 'missed_checkins'
       GROUP BY m.sender_id)
     SELECT t.id, t.user_id, t.canary_id, max(t.misses) AS misses, t.cycle_deadline, t.fired_at, t.counts_from
     FROM waiting w
     JOIN canaries c ON c.user_id = w.sender_id AND c.active = 1
     JOIN canary_transitions t ON t.canary_id = c.id AND t.kind = 'missed' AND t.cycle_deadline > c.last_check_in
       AND t.emitted_at IS NOT NULL AND t.emitted_at <= ?1 AND t.misses >= w.n
     WHERE NOT ${consentWithdrawnSql('w.sender_id', 'messages')}
     GROUP BY t.canary_id, t.cycle_deadline
     LIMIT 100`,
  )
    .bind(before)
    .all<{ id: string; user_id: string; canary_id: string; misses: number; cycle_deadline: number; fired_at: number; counts_from: number | null }>();
  return results.map(toMissedEvent);
}
