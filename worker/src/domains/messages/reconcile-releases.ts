import { schema } from '@afterword/db';
import { and, eq, inArray, isNull, lte, not, or, sql } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { consentWithdrawnSql } from '../legal/consent-state';
import type { DeliverJob } from './delivery/deliver-message';
import { settleMessage } from './delivery/settle-message';
import type { OwnerNoticeJob } from '../../contracts/jobs';
import { syncReleaseTimer } from './release/release-timer';
import { nextWakeAt } from './release/schedule';

/** A timer, job or lease this much past its time counts as lost. */
export const RELEASE_OVERDUE_MS = 30_000;
export const JOB_LOST_AFTER_MS = 60_000;
const BATCH = 200;

/**
 * Clocks and queues are the fast path, never the only record (the canary reconciler's rule, for
 * messages). Every minute: re-sync open messages whose alarm is overdue or missing; re-send delivery
 * jobs and owner notices that should have run by now; settle messages left releasing by a crash.
 * Messages paused by a withdrawn messages consent are left alone.
 */
export async function reconcileReleases(ctx: ServiceContext) {
  const now = ctx.now().getTime();
  const counts = { timers: 0, deliveries: 0, notices: 0, releasingChecked: 0 };

  const stale = await ctx.db
    .select({ message: schema.messages, death: schema.users.death_confirmed_at })
    .from(schema.messages)
    .innerJoin(schema.users, eq(schema.users.id, schema.messages.sender_id))
    .where(
      and(
        inArray(schema.messages.status, ['scheduled', 'armed']),
        or(isNull(schema.messages.timer_due_at), lte(schema.messages.timer_due_at, new Date(now - RELEASE_OVERDUE_MS))),
        // Paused by the sender's withdrawn messages consent: no clock is due (allowing it again re-syncs).
        not(sql.raw(consentWithdrawnSql('"messages"."sender_id"', 'messages'))),
      ),
    )
    .limit(BATCH);
  for (const { message, death } of stale) {
    // No timer is right for a message only a canary event can move.
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
    .where(and(eq(schema.messages.status, 'releasing'), lte(schema.messages.updated_at, new Date(now - JOB_LOST_AFTER_MS))))
    .limit(BATCH);
  for (const { id } of releasing) {
    await settleMessage(ctx, id);
    counts.releasingChecked++;
  }
  if (counts.timers || counts.deliveries || counts.notices) log.warn('release reconciler repaired', counts);
  return counts;
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
