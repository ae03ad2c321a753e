import type { ServiceContext } from '../../env';
import { enqueueGuardianNotices, returnedIds } from './guardian-notices';
import { PERSON_NAME_SQL } from './ladder-records';

/**
 * What a check-in does to the ladder (step 3): every open report of the owner — gathering votes or in its
 * veto window, real or sandbox — is refuted with the owner as actor, its guardians are told, and every
 * hold ends (the owner is evidently alive; a later report starts afresh). Raw D1 statements that join the
 * check-in's single batch, like the release engine's disarming: a check-in and the refutation it causes
 * land together. `owner` is SQL naming the user, its `?1`-style parameters shared with the check-in's.
 * The caller passes the batch's last REFUTE_STATEMENTS results to afterRefutation.
 *
 * `now` is the check-in's own time: a check-in projected late refutes the reports opened before it and
 * ends the holds made before it, and a duplicate or reordered one touches nothing newer.
 */
export const REFUTE_STATEMENTS = 4;

export function refuteOnCheckInStatements(db: D1Database, owner: { sql: string; params: unknown[] }, now: number) {
  const p = owner.params.length;
  const bind = (...extra: unknown[]) => [...owner.params, ...extra];
  const open = `owner_id = ${owner.sql} AND status = 'open' AND opened_at <= ?${p + 1}`;
  return [
    // The steps and notices first: the update changes the status they look for.
    db
      .prepare(
        `INSERT INTO ladder_transitions (id, owner_id, kind, actor, cause, detail, report_id, dedupe_key, at)
         SELECT lower(hex(randomblob(16))), owner_id, 'refuted', 'owner', 'check_in', CASE WHEN sandbox = 1 THEN 'sandbox report' END, id, NULL, ?${p + 1}
         FROM death_reports WHERE ${open}`,
      )
      .bind(...bind(now)),
    db
      .prepare(
        `INSERT INTO guardian_notices (id, owner_id, guardian_id, kind, subject, text, link, sandbox, status, created_at)
         SELECT lower(hex(randomblob(16))), r.owner_id, g.id, 'report_refuted',
                CASE WHEN r.sandbox = 1 THEN '[Sandbox] ' ELSE '' END || ${PERSON_NAME_SQL} || ' checked in',
                ${PERSON_NAME_SQL} || ' checked in on Afterword, so the report of their death is refuted: nothing will be released. Thank you for looking out for them.',
                NULL, r.sandbox, 'pending', ?${p + 1}
         FROM death_reports r JOIN guardians g ON g.owner_id = r.owner_id AND g.status = 'active' JOIN users u ON u.id = r.owner_id
         WHERE r.owner_id = ${owner.sql} AND r.status = 'open' AND r.opened_at <= ?${p + 1} RETURNING id`,
      )
      .bind(...bind(now)),
    db.prepare(`UPDATE death_reports SET status = 'refuted', closed_at = ?${p + 1} WHERE ${open}`).bind(...bind(now)),
    db
      .prepare(`UPDATE guardian_holds SET ended_at = ?${p + 1} WHERE owner_id = ${owner.sql} AND ended_at IS NULL AND created_at <= ?${p + 1}`)
      .bind(...bind(now)),
  ];
}

/** After the check-in's batch: queue the guardians' notices it wrote (the reconciler re-sends lost ones). */
export async function afterRefutation(ctx: Pick<ServiceContext, 'env'>, results: D1Result[]): Promise<void> {
  await enqueueGuardianNotices(ctx, returnedIds(results.slice(1, 2)));
}
