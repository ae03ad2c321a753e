import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { humanTime } from '../../lib/human-time';
import { log } from '../../lib/logger';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { enqueueStorageClassMove } from './cold-storage';
import { EXPORT_WINDOW_MS, INACTIVE_AFTER_MS, KEPT_ACTIVE_SQL, LAST_ACTIVE_SQL, remindersDue } from './policy';
import { endInactivity } from './end-inactivity';

const BATCH = 200;

/**
 * The daily sweep of the inactivity policy (docs/product.md "Inactivity and payments";
 * docs/decisions/inactivity.md), in the order a person lives it: activity since a window opened ends it (an
 * archive is restored); a year without a sign-in or a check-in opens the free export window, with a notice on
 * every channel; reminders six months, one month and one week before its end; at its end the account is
 * archived — read-only, files in R2's cold storage class, restored by signing in. Nothing here deletes
 * anything, and an account kept active (KEPT_ACTIVE_SQL: releases still to come, an open death report, a
 * confirmed death) is neither told nor archived. Every step is one guarded batch, so a sweep that runs twice
 * changes nothing twice.
 */
export async function sweepInactiveAccounts(ctx: ServiceContext) {
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const out = { ended: 0, opened: 0, reminded: 0, archived: 0 };

  const { results: returned } = await db
    .prepare(
      `SELECT i.user_id FROM account_inactivity i JOIN users u ON u.id = i.user_id
       WHERE ${LAST_ACTIVE_SQL} > i.window_started_at LIMIT ${BATCH}`,
    )
    .all<{ user_id: string }>();
  for (const r of returned) if (await endInactivity(ctx, r.user_id)) out.ended++;

  const { results: inactive } = await db
    .prepare(
      `SELECT u.id, ${LAST_ACTIVE_SQL} AS last_active FROM users u
       WHERE NOT EXISTS (SELECT 1 FROM account_inactivity i WHERE i.user_id = u.id)
         AND ${LAST_ACTIVE_SQL} <= ?1 AND NOT ${KEPT_ACTIVE_SQL} LIMIT ${BATCH}`,
    )
    .bind(now - INACTIVE_AFTER_MS)
    .all<{ id: string; last_active: number }>();
  for (const u of inactive) {
    const archiveAt = now + EXPORT_WINDOW_MS;
    const noticeId = crypto.randomUUID();
    const [inserted] = await db.batch([
      db
        .prepare(
          `INSERT INTO account_inactivity (user_id, last_active_at, window_started_at, archive_at, reminders_sent)
           VALUES (?1, ?2, ?3, ?4, 0) ON CONFLICT (user_id) DO NOTHING`,
        )
        .bind(u.id, u.last_active, now, archiveAt),
      insertOwnerNotice(
        db,
        {
          id: noticeId,
          userId: u.id,
          kind: 'inactivity_window_started',
          subject: 'We have not seen you on Afterword for a year',
          text: `There has been no sign-in and no check-in on your account since ${humanTime(u.last_active)}. Until ${humanTime(archiveAt)} you can download everything we hold for you, free (Data Consents, "Download my data"). On that day the account is archived: kept as it is, read-only, until you sign in again. Nothing is deleted. Signing in or checking in once ends this.`,
          link: `${appOrigin(ctx.env)}/app/consent`,
          at: now,
        },
        { sql: 'WHERE changes() = 1' },
      ),
    ]);
    if ((inserted?.meta.changes ?? 0) === 1) {
      out.opened++;
      await enqueueOwnerNotice(ctx, noticeId);
    }
  }

  const { results: windows } = await db
    .prepare(
      `SELECT i.user_id, i.archive_at, i.reminders_sent FROM account_inactivity i JOIN users u ON u.id = i.user_id
       WHERE i.archived_at IS NULL AND NOT ${KEPT_ACTIVE_SQL} LIMIT ${BATCH * 5}`,
    )
    .all<{ user_id: string; archive_at: number; reminders_sent: number }>();
  for (const w of windows) {
    if (now >= w.archive_at) {
      if (await archiveAccount(ctx, w.user_id, now)) out.archived++;
      continue;
    }
    const due = remindersDue(now, w.archive_at);
    if (due <= w.reminders_sent) continue;
    const noticeId = crypto.randomUUID();
    const daysLeft = Math.ceil((w.archive_at - now) / (24 * 3600_000));
    const [updated] = await db.batch([
      db.prepare('UPDATE account_inactivity SET reminders_sent = ?2 WHERE user_id = ?1 AND reminders_sent < ?2 AND archived_at IS NULL').bind(w.user_id, due),
      insertOwnerNotice(
        db,
        {
          id: noticeId,
          userId: w.user_id,
          kind: 'inactivity_reminder',
          subject: `Your Afterword account will be archived on ${humanTime(w.archive_at)}`,
          text: `${daysLeft} days are left of your free export window: until ${humanTime(w.archive_at)} you can download everything we hold for you (Data Consents, "Download my data"). Then the account is archived, read-only, until you sign in again; nothing is deleted. Signing in or checking in once ends this.`,
          link: `${appOrigin(ctx.env)}/app/consent`,
          at: now,
        },
        { sql: 'WHERE changes() = 1' },
      ),
    ]);
    if ((updated?.meta.changes ?? 0) === 1) {
      out.reminded++;
      await enqueueOwnerNotice(ctx, noticeId);
    }
  }
  if (out.ended || out.opened || out.reminded || out.archived) log.info('inactivity sweep', out);
  return out;
}

/**
 * Archives one account whose export window ended: the archive mark on the account (read-only from now:
 * middleware/archived-read-only.ts), its sessions closed (signing in again is what restores it), a
 * notice; then its files move to the cold storage class through the JOBS queue.
 */
async function archiveAccount(ctx: ServiceContext, userId: string, now: number): Promise<boolean> {
  const db = ctx.env.DB;
  const noticeId = crypto.randomUUID();
  const [marked] = await db.batch([
    db
      .prepare(
        `UPDATE account_inactivity SET archived_at = ?2 WHERE user_id = ?1 AND archived_at IS NULL AND archive_at <= ?2
           AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = ?1 AND ${KEPT_ACTIVE_SQL})`,
      )
      .bind(userId, now),
    db.prepare('UPDATE users SET archived_at = ?2 WHERE id = ?1 AND changes() = 1').bind(userId, now),
    db
      .prepare('UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL AND (SELECT archived_at FROM users WHERE id = ?1) = ?2')
      .bind(userId, now),
    insertOwnerNotice(
      db,
      {
        id: noticeId,
        userId,
        kind: 'account_archived',
        subject: 'Your Afterword account is archived',
        text: 'Your free export window has ended, so your account is archived: everything is kept, read-only, and nothing was deleted. Sign in at any time to restore it as it was.',
        link: `${appOrigin(ctx.env)}/login`,
        at: now,
      },
      { sql: 'WHERE (SELECT archived_at FROM users WHERE id = ?) = ?', params: [userId, now] },
    ),
  ]);
  if ((marked?.meta.changes ?? 0) !== 1) return false;
  await enqueueOwnerNotice(ctx, noticeId);
  await enqueueStorageClassMove(ctx, userId);
  return true;
}
