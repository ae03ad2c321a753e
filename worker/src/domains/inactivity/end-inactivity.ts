import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { activityInsert } from '../activity/record-activity';
import { enqueueStorageClassMove } from './cold-storage';

/**
 * A sign-in or a check-in after the export window opened ends the inactivity policy for this account:
 * the window is closed and an archive restored (writable again, files back to the standard storage
 * class). Called on every sign-in (domains/auth/sessions.ts) and by the daily sweep for check-ins.
 * Returns whether there was anything to end.
 */
export async function endInactivity(ctx: ServiceContext, userId: string): Promise<boolean> {
  const db = ctx.env.DB;
  const [ended] = await db.batch([
    db.prepare('DELETE FROM account_inactivity WHERE user_id = ?1 RETURNING archived_at').bind(userId),
    db.prepare('UPDATE users SET archived_at = NULL WHERE id = ?1 AND archived_at IS NOT NULL').bind(userId),
  ]);
  const row = (ended?.results as { archived_at: number | null }[] | undefined)?.[0];
  if (!row) return false;
  if (row.archived_at != null) {
    await activityInsert(ctx, {
      userId,
      kind: 'account_restored',
      source: 'user',
      summary: 'Welcome back: your archived account is restored as it was.',
    });
    await enqueueStorageClassMove(ctx, userId);
    log.info('archived account restored', { user_id: userId });
  }
  return true;
}
