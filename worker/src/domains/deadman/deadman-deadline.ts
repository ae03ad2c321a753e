import { effectiveDeadlineSql, periodSql } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';

/**
 * The dead-man's deadline as it stands is the later of the stored one and the owner's latest check-in on any of their
 * canaries + hours (`effectiveDeadlineSql`, beside the table in db/schema/deadman.ts). Check-ins do not write the
 * stored deadline (deadman-check-in.ts): the cron moves it when it finds it passed and the owner checked in since
 * (process-deadman.ts), and a canary's deletion folds its last check-in into it first (canary/delete-canary.ts), so
 * no check-in is forgotten.
 */

/** The owner's switch (null: none), its hours and its deadline as it stands. */
export async function deadmanDeadlineOf(ctx: ServiceContext, userId: string): Promise<{ hours: number; deadline: number } | null> {
  return ctx.env.DB.prepare(`SELECT d.hours AS hours, ${effectiveDeadlineSql('d')} AS deadline FROM deadman_switches d WHERE d.user_id = ?`)
    .bind(userId)
    .first<{ hours: number; deadline: number }>();
}

/**
 * A deleted canary's last check-in, folded into its owner's stored deadline (a statement for the deletion's batch,
 * before the canary's row goes): afterwards no canary holds it. Written only when it moves the deadline.
 */
export function foldDeletedCanaryStatements(db: D1Database, canaryId: string): D1PreparedStatement[] {
  const moved = `(SELECT last_check_in FROM canaries WHERE id = ?1) + ${periodSql()}`;
  return [
    db
      .prepare(`UPDATE deadman_switches SET deadline = ${moved} WHERE user_id = (SELECT user_id FROM canaries WHERE id = ?1) AND deadline < ${moved}`)
      .bind(canaryId),
  ];
}
