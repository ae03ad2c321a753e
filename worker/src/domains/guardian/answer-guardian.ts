import { appOrigin } from '../../lib/app-origin';
import type { User } from '@afterword/db/schema';
import { MAX_HOLD_DAYS, ZGuardianAnswerInput, type TLadderAnswerResult } from '../../contracts/guardian';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { settleCheckInsOf } from '../canary/settle-check-ins';
import { hasConsent } from '../legal/consent-state';
import { parseOrThrow } from '../../lib/validation';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { loadOwnGuardianship } from './guardian-side';
import { DAY_MS, guardianActor, ifRecorded, isMissing, personName, recordStep } from './ladder-records';
import { ladderStateFor } from './ladder-view';
import { recordDeathReport } from './report-death';
import { syncGuardianClock } from './ladder-timer';
import { humanTime } from '../../lib/human-time';

export const NOT_MISSED = (name: string) => `${name} has not missed a check-in: a death can be reported only after a missed check-in`;
export const GUARDIAN_CONSENT_WITHDRAWN = (name: string) =>
  `${name} has withdrawn their guardian consent: guardians cannot report their death now (your answer was not recorded)`;
export const ALREADY_CONFIRMED = (name: string) => `${name}'s death is already confirmed`;

/**
 * POST /api/guardian/{id}/answer: a guardian's answer to "Have you heard from {name}?" (ladder step 1).
 * Only an active guardian answers (revoked, declined, resigned: 403, nothing recorded); the id is the
 * caller's own guardianship (anyone else's: 404).
 * - `fine`: recorded; the owner is asked to check in.
 * - `hold` N days (1–30): death-triggered releases wait until it ends — the confirmation is what waits, so
 *   nothing else moves. All holds of one episode (until the owner checks in) end within 30 days of the
 *   first, so guardians cannot hold forever.
 * - `report_death`: a vote, only after the owner missed a check-in (409 otherwise) and while the owner's
 *   guardian consent holds (403 otherwise; an API key's report is not a guardian's); see recordDeathReport.
 */
export async function answerAsGuardian(ctx: ServiceContext, user: User, id: string, body: unknown): Promise<TLadderAnswerResult> {
  const { g, owner } = await loadOwnGuardianship(ctx, user.id, id);
  const input = parseOrThrow(ZGuardianAnswerInput, body, 'body');
  const name = personName(owner);
  if (g.status !== 'active') throw new AppError('FORBIDDEN', `You are no longer a guardian of ${name} (${g.status}): your answer was not recorded`);
  if (owner.death_confirmed_at) throw new AppError('CONFLICT', ALREADY_CONFIRMED(name));
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const actor = guardianActor(g.id);
  const who = personName(user);
  let recorded: string = input.answer === 'report_death' ? 'death_reported' : input.answer === 'fine' ? 'guardian_fine' : 'hold';

  if (input.answer === 'fine') {
    const step = recordStep(db, { ownerId: owner.id, kind: 'guardian_fine', actor, cause: 'guardian_answered', at: now });
    const noticeId = crypto.randomUUID();
    await db.batch([
      step.statement,
      insertOwnerNotice(
        db,
        {
          id: noticeId,
          userId: owner.id,
          kind: 'guardian_fine',
          subject: `${who} says you are fine — please check in`,
          text: `${who}, one of your guardians, told Afterword that you are fine. Please check in so your timers start again: ${appOrigin(ctx.env)}/app`,
          link: null,
          at: now,
        },
        ifRecorded(step.id),
      ),
    ]);
    await enqueueOwnerNotice(ctx, noticeId);
  } else if (input.answer === 'hold') {
    const { results } = await db
      .prepare('SELECT min(created_at) AS first FROM guardian_holds WHERE owner_id = ?1 AND ended_at IS NULL')
      .bind(owner.id)
      .all<{ first: number | null }>();
    const first = results[0]?.first ?? now;
    const until = Math.min(now + input.days * DAY_MS, first + MAX_HOLD_DAYS * DAY_MS);
    if (until <= now) throw new AppError('CONFLICT', `Holds have already paused ${name}'s ladder for ${MAX_HOLD_DAYS} days, the most they may`);
    const step = recordStep(db, {
      ownerId: owner.id,
      kind: 'hold',
      actor,
      cause: 'guardian_answered',
      detail: `until ${humanTime(until)}`,
      at: now,
    });
    await db.batch([
      db
        .prepare('INSERT INTO guardian_holds (id, owner_id, guardian_id, until, created_at) VALUES (?, ?, ?, ?, ?)')
        .bind(crypto.randomUUID(), owner.id, g.id, until, now),
      step.statement,
    ]);
    await syncGuardianClock(ctx.env, owner.id);
  } else {
    if (!(await hasConsent(ctx, owner.id, 'guardian'))) throw new AppError('FORBIDDEN', GUARDIAN_CONSENT_WITHDRAWN(name));
    // The canaries' objects hold the check-ins and D1's copy may lag (a projection still queued, or lost with
    // the isolate that answered it): D1 hears of them first, so a report is never taken against a stale
    // `last_check_in` — an owner who checked in has not missed (docs/decisions/canary-engine.md).
    await settleCheckInsOf(ctx, owner.id);
    if (!(await isMissing(ctx, owner.id, now))) throw new AppError('CONFLICT', NOT_MISSED(name));
    const outcome = await recordDeathReport(ctx, owner, { kind: 'guardian', guardianId: g.id }, false, { openedAt: now });
    if (!outcome.voted) recorded = 'already_reported';
  }
  const state = await ladderStateFor(ctx, owner, now);
  return { recorded, stage: state.stage, report: state.report, hold_until: state.hold_until };
}
