import { schema } from '@afterword/db';
import { and, eq, lte, notExists, sql } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { log } from '../../lib/logger';
import { deleteAccount } from '../account/delete-account';
import { hasUndeliveredReleases } from '../account/pending-releases';
import { activityInsert } from '../activity/record-activity';
import { copiesStillPending, discardCancelledCopies, tellHeirs } from '../legacy/prepare-copies';
import { humanTime } from '../../lib/human-time';
import { settleCheckInsOf } from '../canary/settle-check-ins';
import { enqueueOwnerNotice } from '../notify/enqueue-owner-notice';
import { effectiveDeadlineSql } from '@afterword/db/schema';
import { deadmanDeadlineOf } from './deadman-deadline';
import { DEADMAN_FINAL_NOTICE_MS, deletionNoticeInsert, deletionNoticeReachedAt } from './deletion-notice';

/** When a passed switch's deletion is carried out at the earliest, scheduled at `now` (the rehearsal plans it with the same rule). */
export const deadmanDeletionDate = (deadline: number, now: number) => Math.max(now, deadline) + DEADMAN_FINAL_NOTICE_MS;

/**
 * Run by the every-minute cron (a minute is precise enough for a deadline counted in hours; the
 * table is the record, so no timer can be lost). 1) A passed deadline schedules the account's
 * deletion, listed in /api/legal/deletions, for one day later, and warns the owner on every channel
 * (deletion-notice.ts). 2) A due deletion is carried out only a full day after that warning reached the
 * owner, when every release due by then has been delivered and every copy left to an heir is made (domains/legacy/).
 */
export async function processDeadmanSwitches(ctx: ServiceContext) {
  const now = ctx.now();
  // Check-ins do not write the stored deadline (deadman-check-in.ts): a switch whose stored deadline passed while its
  // owner checked in since is moved to its deadline as it stands — one write a switch period, not one a check-in.
  await ctx.env.DB.prepare(
    `UPDATE deadman_switches SET deadline = ${effectiveDeadlineSql('deadman_switches')}
     WHERE deadline <= ?1 AND ${effectiveDeadlineSql('deadman_switches')} > ?1`,
  )
    .bind(now.getTime())
    .run();
  const passed = await ctx.db
    .select()
    .from(schema.deadmanSwitches)
    .where(
      and(
        lte(schema.deadmanSwitches.deadline, now),
        notExists(
          ctx.db
            .select({ id: schema.scheduledDeletions.id })
            .from(schema.scheduledDeletions)
            .where(
              and(
                eq(schema.scheduledDeletions.user_id, schema.deadmanSwitches.user_id),
                eq(schema.scheduledDeletions.status, 'scheduled'),
                eq(schema.scheduledDeletions.reason, 'deadman'),
              ),
            ),
        ),
      ),
    )
    // In no fixed order: a switch whose canaries cannot settle stays passed, and 200 such must not hide the others.
    .orderBy(sql`random()`)
    .limit(200);
  let scheduled = 0;
  for (const sw of passed) {
    // D1's deadline may lag the canaries' objects (a token check-in still queued, or its send lost): they write
    // what they hold first, so nobody is told "your account will be deleted" after checking in. Then read again.
    // An object that cannot answer: this owner waits for the next run (never scheduled on a copy that may lag).
    try {
      await settleCheckInsOf(ctx, sw.user_id);
    } catch (err) {
      log.warn('dead-man deadline passed in D1; its canaries could not settle, trying again next run', { user_id: sw.user_id, error: String(err) });
      continue;
    }
    const fresh = await deadmanDeadlineOf(ctx, sw.user_id);
    if (!fresh) continue;
    if (fresh.deadline > now.getTime()) {
      // A check-in the objects held: the deadline moves to it (else this switch is looked at again every minute).
      await ctx.db
        .update(schema.deadmanSwitches)
        .set({ deadline: new Date(fresh.deadline) })
        .where(eq(schema.deadmanSwitches.user_id, sw.user_id));
      continue;
    }
    scheduled++;
    const deletionDate = new Date(deadmanDeletionDate(fresh.deadline, now.getTime()));
    const id = crypto.randomUUID();
    await runBatch(ctx.db, [
      ctx.db.insert(schema.scheduledDeletions).values({
        id,
        user_id: sw.user_id,
        type: 'account',
        reason: 'deadman',
        deletion_date: deletionDate,
        status: 'scheduled',
        created_at: now,
      }),
      activityInsert(ctx, {
        userId: sw.user_id,
        kind: 'account_deletion_scheduled',
        source: 'system',
        at: now,
        summary: `No check-in for ${sw.hours} hours: your account will be deleted after ${humanTime(deletionDate.getTime())}. Check in to cancel.`,
      }),
      deletionNoticeInsert(ctx, { id, userId: sw.user_id, hours: sw.hours, deletionDate, at: now }),
    ]);
    await enqueueOwnerNotice(ctx, id);
  }

  const due = await ctx.db
    .select()
    .from(schema.scheduledDeletions)
    .where(and(eq(schema.scheduledDeletions.status, 'scheduled'), lte(schema.scheduledDeletions.deletion_date, now)))
    // In no fixed order: a due deletion that waits — for its warning to reach the owner (an outage), for releases
    // under way, for heirs' copies — stays due, and in the order of their dates 50 waiting ones took every run's
    // batch, so nobody else's deletion was carried out until they were. Drawn at random, a deletion that can go
    // ahead is among the 50 with a chance of at least 50 in the number due, each minute.
    .orderBy(sql`random()`)
    .limit(50);
  let deleted = 0;
  for (const d of due) {
    if (d.reason === 'deadman') {
      // The canaries' objects hold the check-ins (D1 may lag): one that came in time cancels this deletion.
      await settleCheckInsOf(ctx, d.user_id);
      const [still] = await ctx.db
        .select({ status: schema.scheduledDeletions.status })
        .from(schema.scheduledDeletions)
        .where(eq(schema.scheduledDeletions.id, d.id));
      if (still?.status !== 'scheduled') continue;
      if (!(await warnedADayBefore(ctx, d, now.getTime()))) continue;
      // A dead-man deletion waits for releases under way; one the user asked for does not (they chose to leave).
      if (await hasUndeliveredReleases(ctx, d.user_id)) {
        log.info('dead-man deletion waits for undelivered releases', { user_id: d.user_id });
        continue;
      }
      // Share, then delete: the copies left to heirs are made first.
      if ((await copiesStillPending(ctx, d)) > 0) continue;
    }
    await deleteAccount(ctx, d.user_id);
    await ctx.db.update(schema.scheduledDeletions).set({ status: 'done', done_at: ctx.now() }).where(eq(schema.scheduledDeletions.id, d.id));
    await tellHeirs(ctx, d.id);
    deleted++;
  }
  await discardCancelledCopies(ctx);
  return { scheduled, deleted };
}

/**
 * Whether the deletion's warning reached the owner a full final day ago. Until a channel accepts it the deletion
 * waits (the notice is tried again with backoff); a warning that reached them late moves the date the
 * deletions list shows. A deletion scheduled before warnings existed gets its warning now.
 */
async function warnedADayBefore(ctx: ServiceContext, d: typeof schema.scheduledDeletions.$inferSelect, now: number): Promise<boolean> {
  const notice = await deletionNoticeReachedAt(ctx, d.id);
  if (notice.missing) {
    const hours = (
      await ctx.db.select({ hours: schema.deadmanSwitches.hours }).from(schema.deadmanSwitches).where(eq(schema.deadmanSwitches.user_id, d.user_id))
    )[0]?.hours;
    const deletionDate = new Date(now + DEADMAN_FINAL_NOTICE_MS);
    await runBatch(ctx.db, [
      deletionNoticeInsert(ctx, { id: d.id, userId: d.user_id, hours: hours ?? null, deletionDate, at: new Date(now) }),
      ctx.db.update(schema.scheduledDeletions).set({ deletion_date: deletionDate }).where(eq(schema.scheduledDeletions.id, d.id)),
    ]);
    await enqueueOwnerNotice(ctx, d.id);
    return false;
  }
  if (notice.sentAt === null) return false;
  const earliest = notice.sentAt + DEADMAN_FINAL_NOTICE_MS;
  if (earliest <= now) return true;
  if (earliest > d.deletion_date.getTime()) {
    await ctx.db
      .update(schema.scheduledDeletions)
      .set({ deletion_date: new Date(earliest) })
      .where(eq(schema.scheduledDeletions.id, d.id));
  }
  return false;
}
