import { appOrigin } from '../../lib/app-origin';
import type { User } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';
import { enqueueOwnerNotice } from '../notify/enqueue-owner-notice';
import { guardianActor, HOUR_MS, keyActor, loadSettings, readable } from './ladder-records';
import { syncGuardianClock } from './ladder-timer';

export type Reporter = { kind: 'guardian'; guardianId: string } | { kind: 'key'; keyId: string; note?: string | undefined };

export interface ReportOutcome {
  /** A new vote was recorded (false: this guardian or key had already reported on the open report). */
  voted: boolean;
  /** This vote opened the veto window (quorum reached, or a key). */
  vetoOpened: boolean;
  reportId: string | null;
}

/**
 * Records a death report (docs/server-rules.md "Guardians and death confirmation",
 * docs/decisions/guardian-ladder.md step 2) in one D1 batch: the open report of the owner (created by the first
 * reporter), the reporter's vote (unique per report: the same guardian twice counts once), the `death_reported`
 * step, and — when the distinct *active* guardians' votes reach the owner's quorum, or at once for an API key —
 * the opening of the veto window, its `veto_opened` step (once per report: dedupe key) and the owner's urgent
 * notice. Every statement re-checks that the reporter may report (an active guardian; the death not yet confirmed),
 * so a revocation racing the vote records nothing. The caller checks the rest first (404/403/409).
 */
export async function recordDeathReport(
  ctx: ServiceContext,
  owner: User,
  reporter: Reporter,
  sandbox: boolean,
  opts: { openedAt?: number } = {},
): Promise<ReportOutcome> {
  const now = ctx.now().getTime();
  // A report is refuted by a check-in at or after it opened. A caller that first made D1 agree with the canaries'
  // objects dates the report from before that settle, so a check-in the settle could not see refutes it.
  const openedAt = Math.min(opts.openedAt ?? now, now);
  const settings = await loadSettings(ctx, owner.id);
  const windowMs = settings.veto_window_hours * HOUR_MS;
  const db = ctx.env.DB;
  const isGuardian = reporter.kind === 'guardian';
  const actor = isGuardian ? guardianActor(reporter.guardianId) : keyActor(reporter.keyId);
  const voterId = isGuardian ? reporter.guardianId : reporter.keyId;
  const [reportId, voteId, stepId, vetoId, noticeId] = [
    crypto.randomUUID(),
    crypto.randomUUID(),
    crypto.randomUUID(),
    crypto.randomUUID(),
    crypto.randomUUID(),
  ];
  const who = isGuardian ? 'Your guardians' : 'An API key of your account with the death-verification scope';
  const params = [
    owner.id, // ?1
    now, // ?2
    sandbox ? 1 : 0, // ?3
    reportId, // ?4
    voterId, // ?5
    voteId, // ?6
    actor, // ?7
    windowMs, // ?8
    vetoId, // ?9
    noticeId, // ?10
    `${sandbox ? '[Sandbox] ' : ''}Your death was reported: check in before ${readable(now + windowMs, owner.time_zone)} if you are alive`, // ?11
    [
      `${who} reported on Afterword that you have died.`,
      `If you are alive, check in before ${readable(now + windowMs, owner.time_zone)}: any check-in (the Heartbeat button, a canary token, a ping) cancels the report at once.`,
      `If nobody refutes it by then, your death will be confirmed and the messages you set to go after your death will start on their way.`,
      `Check in: ${appOrigin(ctx.env)}/app`,
      ...(sandbox ? ['This report was made with a sandbox API key: it is a rehearsal and will never mark you as dead.'] : []),
    ].join('\n\n'), // ?12
    stepId, // ?13
    isGuardian ? null : (reporter.note ?? null), // ?14
    openedAt, // ?15
  ];
  const eligible = isGuardian
    ? `EXISTS (SELECT 1 FROM guardians WHERE id = ?5 AND owner_id = ?1 AND status = 'active') AND EXISTS (SELECT 1 FROM users WHERE id = ?1 AND death_confirmed_at IS NULL)`
    : `EXISTS (SELECT 1 FROM users WHERE id = ?1 AND death_confirmed_at IS NULL)`;
  const openReport = `owner_id = ?1 AND sandbox = ?3 AND status = 'open'`;
  // A key opens the window by itself; guardians when their distinct active votes reach the quorum.
  const reachesQuorum = isGuardian
    ? `(SELECT count(*) FROM death_report_votes v JOIN guardians g ON g.id = v.guardian_id WHERE v.report_id = death_reports.id AND g.status = 'active')
         >= coalesce((SELECT quorum FROM guardian_settings WHERE owner_id = ?1), 1)`
    : '1';
  const sql = [
    `INSERT OR IGNORE INTO death_reports (id, owner_id, status, sandbox, opened_by, opened_at) SELECT ?4, ?1, 'open', ?3, ?7, ?15 WHERE ${eligible}`,
    `INSERT OR IGNORE INTO death_report_votes (id, report_id, guardian_id, key_id, created_at)
     SELECT ?6, id, ${isGuardian ? '?5, NULL' : 'NULL, ?5'}, ?2 FROM death_reports WHERE ${openReport} AND ${eligible}`,
    `INSERT INTO ladder_transitions (id, owner_id, kind, actor, cause, detail, report_id, dedupe_key, at)
     SELECT ?13, ?1, 'death_reported', ?7, '${isGuardian ? 'guardian_report' : 'key_report'}', ?14, report_id, NULL, ?2 FROM death_report_votes WHERE id = ?6`,
    `UPDATE death_reports SET window_opened_at = ?2, window_ends_at = ?2 + ?8, halfway_at = ?2 + ?8 / 2
     WHERE ${openReport} AND window_opened_at IS NULL AND EXISTS (SELECT 1 FROM death_report_votes WHERE id = ?6) AND ${reachesQuorum}`,
    `INSERT OR IGNORE INTO ladder_transitions (id, owner_id, kind, actor, cause, detail, report_id, dedupe_key, at)
     SELECT ?9, ?1, 'veto_opened', 'system', '${isGuardian ? 'quorum_reached' : 'key_report'}', 'ends ' || datetime((?2 + ?8) / 1000, 'unixepoch') || ' UTC', id, 'veto:' || id, ?2
     FROM death_reports WHERE ${openReport} AND window_opened_at = ?2`,
    `INSERT INTO owner_notices (id, user_id, kind, subject, text, link, outbox_only, status, due_at, created_at)
     SELECT ?10, ?1, 'death_reported', ?11, ?12, NULL, ?3, 'pending', ?2, ?2 WHERE EXISTS (SELECT 1 FROM ladder_transitions WHERE id = ?9)`,
  ];
  // Each statement binds the parameters it names; D1 wants exactly as many values as the highest ?N.
  const statements = sql.map((s) => db.prepare(s).bind(...params.slice(0, Math.max(...[...s.matchAll(/\?(\d+)/g)].map((m) => Number(m[1]))))));
  const results = await db.batch(statements);
  const voted = results[2]!.meta.changes === 1;
  const vetoOpened = results[4]!.meta.changes === 1;
  const open = await db
    .prepare(`SELECT id FROM death_reports WHERE ${openReport}`)
    .bind(owner.id, now, sandbox ? 1 : 0)
    .first<{ id: string }>();
  if (vetoOpened) {
    await enqueueOwnerNotice(ctx, noticeId);
    await syncGuardianClock(ctx.env, owner.id);
  }
  return { voted, vetoOpened, reportId: open?.id ?? null };
}
