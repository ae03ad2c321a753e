import type { ServiceContext } from '../../env';
import type { CheckInRows } from '../canary/check-in-rows';
import { enqueueGuardianNotices } from './guardian-notices';
import { returnedIds } from '../../lib/db-batch';
import { PERSON_NAME_SQL } from './ladder-records';

/**
 * What check-ins do to the ladder (step 3): every open report of the owner — gathering votes or in its
 * veto window, real or sandbox — is refuted with the owner as actor, its guardians are told, and every
 * hold ends (the owner is evidently alive; a later report starts afresh). Raw D1 statements over the
 * batch's check-ins (canary/check-in-rows.ts) that join the check-in's single batch, like the release
 * engine's disarming: a check-in and the refutation it causes land together. A check-in participant
 * (wiring/check-in-participants.ts): afterRefutation gets these statements' results.
 *
 * Each check-in is judged by its own time: one projected late refutes the reports opened before it and
 * ends the holds made before it (dated by the first such check-in), and a duplicate or reordered one
 * touches nothing newer.
 */
export function refuteOnCheckInStatements(db: D1Database, rows: CheckInRows) {
  // The first check-in at or after a report was opened (or a hold made), or NULL.
  const refutedAt = (r: string, owner: string, since: string) => `(SELECT min(ci.at) FROM ci WHERE ci.user_id = ${r}.${owner} AND ${r}.${since} <= ci.at)`;
  const open = (r: string) => `${r}.owner_id IN (SELECT user_id FROM ci) AND +${r}.status = 'open'`;
  return [
    // The steps and notices first: the update changes the status they look for.
    db
      .prepare(
        `${rows.with} INSERT INTO ladder_transitions (id, owner_id, kind, actor, cause, detail, report_id, dedupe_key, at)
         SELECT lower(hex(randomblob(16))), owner_id, 'refuted', 'owner', 'check_in', CASE WHEN sandbox = 1 THEN 'sandbox report' END, id, NULL, at
         FROM (SELECT r.owner_id, r.sandbox, r.id, ${refutedAt('r', 'owner_id', 'opened_at')} AS at FROM death_reports r WHERE ${open('r')})
         WHERE at IS NOT NULL`,
      )
      .bind(...rows.params),
    db
      .prepare(
        `${rows.with} INSERT INTO guardian_notices (id, owner_id, guardian_id, kind, subject, text, link, sandbox, status, created_at)
         SELECT lower(hex(randomblob(16))), r.owner_id, g.id, 'report_refuted',
                CASE WHEN r.sandbox = 1 THEN '[Sandbox] ' ELSE '' END || ${PERSON_NAME_SQL} || ' checked in',
                ${PERSON_NAME_SQL} || ' checked in on Afterword, so the report of their death is refuted: nothing will be released. Thank you for looking out for them.',
                NULL, r.sandbox, 'pending', r.at
         FROM (SELECT r.owner_id, r.sandbox, ${refutedAt('r', 'owner_id', 'opened_at')} AS at FROM death_reports r WHERE ${open('r')}) r
         JOIN guardians g ON g.owner_id = r.owner_id AND g.status = 'active' JOIN users u ON u.id = r.owner_id
         WHERE r.at IS NOT NULL RETURNING id`,
      )
      .bind(...rows.params),
    db
      .prepare(
        `${rows.with} UPDATE death_reports SET status = 'refuted', closed_at = ${refutedAt('death_reports', 'owner_id', 'opened_at')}
         WHERE ${open('death_reports')} AND ${refutedAt('death_reports', 'owner_id', 'opened_at')} IS NOT NULL`,
      )
      .bind(...rows.params),
    db
      .prepare(
        `${rows.with} UPDATE guardian_holds SET ended_at = ${refutedAt('guardian_holds', 'owner_id', 'created_at')}
         WHERE owner_id IN (SELECT user_id FROM ci) AND ended_at IS NULL AND ${refutedAt('guardian_holds', 'owner_id', 'created_at')} IS NOT NULL`,
      )
      .bind(...rows.params),
  ];
}

/** After the check-in's batch: queue the guardians' notices it wrote (the reconciler re-sends lost ones). */
export async function afterRefutation(ctx: Pick<ServiceContext, 'env'>, results: D1Result[]): Promise<void> {
  await enqueueGuardianNotices(ctx, returnedIds(results.slice(1, 2)));
}
