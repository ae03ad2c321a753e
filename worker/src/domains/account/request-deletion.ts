import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, eq } from 'drizzle-orm';
import { ACCOUNT_DELETION_DELAY_MS, ACCOUNT_DELETION_ERRORS, type TAccountDeleteInput } from '../../contracts/account';
import type { TScheduledDeletion } from '../../contracts/legal';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { activityInsert } from '../activity/record-activity';
import { confirmPassword } from '../auth/confirm-password';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { humanTime } from '../../lib/human-time';

const scheduledByRequest = (userId: string) =>
  and(eq(schema.scheduledDeletions.user_id, userId), eq(schema.scheduledDeletions.reason, 'request'), eq(schema.scheduledDeletions.status, 'scheduled'));

/**
 * The password that confirms a deletion, checked like a sign-in (a wrong one counts against the login
 * throttle). POST /api/account/delete/check runs it alone, so the page learns of a wrong password before
 * it asks "are you sure?" — and the deletion itself checks it again.
 */
export async function checkDeletionPassword(ctx: ServiceContext, user: User, input: TAccountDeleteInput, clientAddress: string): Promise<{ ok: true }> {
  await confirmPassword(ctx, user, input.password, clientAddress, {
    field: 'password',
    noPassword: ACCOUNT_DELETION_ERRORS.noPassword,
    wrong: ACCOUNT_DELETION_ERRORS.wrongPassword,
  });
  return { ok: true };
}

/**
 * POST /api/account/delete: schedules the erasure of the caller's account seven days ahead, cancelable
 * until then (POST /api/account/delete/cancel), listed in GET /api/legal/deletions. The password is
 * checked like a sign-in (a wrong one counts against the login throttle, so a stolen session cannot guess
 * it faster than the login form). The user is told on every channel they have: a deletion they did not
 * ask for must not go unseen. The row (unique while scheduled) and the notice are one batch.
 */
export async function requestAccountDeletion(ctx: ServiceContext, user: User, input: TAccountDeleteInput, clientAddress: string): Promise<TScheduledDeletion> {
  await checkDeletionPassword(ctx, user, input, clientAddress);

  const now = ctx.now();
  const id = crypto.randomUUID();
  const deletionDate = new Date(now.getTime() + ACCOUNT_DELETION_DELAY_MS);
  const when = deletionDate.toUTCString();
  const db = ctx.env.DB;
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO scheduled_deletions (id, user_id, type, reason, deletion_date, status, created_at)
         SELECT ?1, ?2, 'account', 'request', ?3, 'scheduled', ?4
         WHERE NOT EXISTS (SELECT 1 FROM scheduled_deletions WHERE user_id = ?2 AND reason = 'request' AND status = 'scheduled')`,
      )
      .bind(id, user.id, deletionDate.getTime(), now.getTime()),
    insertOwnerNotice(
      db,
      {
        id,
        userId: user.id,
        kind: 'account_deletion_requested',
        subject: 'Your Afterword account will be deleted',
        text: `You asked us to delete your account. On ${when} everything we hold about you is erased: your messages and files, recordings, guardians and history; messages not yet released will never be. Until then you can cancel in Data Consents, and take an export of your data. If this was not you, sign in, cancel it and change your password.`,
        link: null,
        at: now.getTime(),
      },
      { sql: 'WHERE changes() = 1' },
    ),
  ]);
  if ((inserted?.meta.changes ?? 0) !== 1) throw new AppError('CONFLICT', ACCOUNT_DELETION_ERRORS.already);
  await activityInsert(ctx, {
    userId: user.id,
    kind: 'account_deletion_requested',
    source: 'user',
    at: now,
    summary: `You asked for your account to be deleted on ${humanTime(deletionDate.getTime())}.`,
  });
  await enqueueOwnerNotice(ctx, id);
  return { type: 'account', id, deletion_date: deletionDate.toISOString(), status: 'scheduled', reason: 'request' };
}

/** POST /api/account/delete/cancel: the requested deletion is cancelled (404 when none is scheduled). */
export async function cancelAccountDeletion(ctx: ServiceContext, user: User): Promise<{ cancelled: true; id: string }> {
  const [row] = await ctx.db.update(schema.scheduledDeletions).set({ status: 'cancelled' }).where(scheduledByRequest(user.id)).returning();
  if (!row) throw new AppError('NOT_FOUND', ACCOUNT_DELETION_ERRORS.nothingToCancel);
  await activityInsert(ctx, { userId: user.id, kind: 'account_deletion_cancelled', source: 'user', summary: 'You cancelled the deletion of your account.' });
  return { cancelled: true, id: row.id };
}
