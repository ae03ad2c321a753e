import type { TActivity } from '../../contracts/activity';
import { canaryLabel } from '../../contracts/canary';
import { graceOf } from '../../contracts/canary-health';
import type { TCanarySchedule } from '../../contracts/canary-schedule';
import type { ServiceContext } from '../../env';
import { humanTime } from '../../lib/human-time';
import type { ActivityLineSource } from '../activity/line-sources';
import { keepActivityLines } from '../activity/record-activity';
import { durationWords } from './canary-notice-texts';

/**
 * The feed's lines for what a canary's wakes recorded — its grace reminder, a re-warning after a late deadline, each
 * run of missed intervals — made from the timer events D1 keeps anyway (`canary_transitions`, projected from the
 * canary's object) when the feed is read, instead of a row of `activity` written with each event: that row was a
 * third copy of the event (beside the timer event and the owner's notice), one D1 row written and kept for the
 * account's lifetime (docs/decisions/check-in-history.md "The wakes' lines"). The words are those the wakes wrote,
 * with the canary's name and grace period as they are now.
 *
 * A line's id is its event's (for a run of misses, the first miss's), its time the instant the wake recorded it. An
 * earlier release wrote these lines into `activity` with ids of their own; a line `activity` already holds for the
 * same canary, kind and instant is left out here, so none shows twice.
 */

/** The event kinds that have a line, by the line's kind. */
const LINE_KIND_SQL = `CASE t.kind WHEN 'missed' THEN 'missed_checkin' ELSE t.kind END`;

interface EventRun {
  id: string;
  canary_id: string;
  kind: 'grace_reminder' | 'late_rewarn' | 'missed';
  cycle_deadline: number;
  fired_at: number;
  lo: number;
  hi: number;
  name: string;
  interval_seconds: number;
  schedule: string | null;
}

/** The line's words, as the wake wrote them (before 2026-11-29 into `activity`). */
function summaryOf(e: EventRun): string {
  const label = canaryLabel(e.name);
  if (e.kind === 'grace_reminder') return `Reminder: check in before ${humanTime(e.cycle_deadline)} or your canary "${label}" is missed.`;
  if (e.kind === 'late_rewarn') {
    const grace = graceOf({ intervalSeconds: e.interval_seconds, schedule: e.schedule ? (JSON.parse(e.schedule) as TCanarySchedule) : null });
    return `Your canary "${label}" passed its deadline before a reminder could reach you. Nothing is released until ${durationWords(grace)} after a warning reaches you; check in before then.`;
  }
  const span = e.lo === e.hi ? `${e.lo} ${e.lo === 1 ? 'interval' : 'intervals'}` : `${e.lo} to ${e.hi} intervals`;
  return `Missed check-in on "${label}" (${span} without a check-in).`;
}

const lineOf = (e: EventRun): TActivity => ({
  id: e.id,
  kind: e.kind === 'missed' ? 'missed_checkin' : e.kind,
  source: 'system',
  canary_id: e.canary_id,
  summary: summaryOf(e),
  created_at: new Date(e.fired_at).toISOString(),
});

/**
 * The user's event lines, newest first (`limit` of them, or all), of their canaries (`canaryIds`, or every one D1 still
 * has). One run of misses — the misses one wake recorded, sharing its instant and cycle — is one line, whose id is
 * its first miss's (read back by the table's key).
 */
async function eventLines(ctx: ServiceContext, userId: string, opts: { limit?: number; canaryIds?: readonly string[] }): Promise<TActivity[]> {
  const { results } = await ctx.env.DB.prepare(
    `WITH runs AS (
       SELECT t.canary_id AS canary_id, t.kind AS kind, t.cycle_deadline AS cycle_deadline, t.fired_at AS fired_at,
              min(t.misses) AS lo, max(t.misses) AS hi
       FROM canaries c JOIN canary_transitions t ON t.canary_id = c.id
       WHERE c.user_id = ?1 AND (?3 IS NULL OR c.id IN (SELECT value FROM json_each(?3)))
         AND t.kind IN ('grace_reminder', 'late_rewarn', 'missed')
         AND NOT EXISTS (SELECT 1 FROM activity a WHERE a.user_id = ?1 AND a.created_at = t.fired_at AND a.canary_id = t.canary_id AND a.kind = ${LINE_KIND_SQL})
       GROUP BY t.canary_id, t.kind, t.fired_at
       ORDER BY t.fired_at DESC
       LIMIT ?2)
     SELECT x.id AS id, r.canary_id AS canary_id, r.kind AS kind, r.cycle_deadline AS cycle_deadline, r.fired_at AS fired_at, r.lo AS lo,
            r.hi AS hi, c.name AS name, c.interval_seconds AS interval_seconds, c.schedule AS schedule
     FROM runs r
     JOIN canary_transitions x ON x.canary_id = r.canary_id AND x.cycle_deadline = r.cycle_deadline AND x.kind = r.kind AND x.misses = r.lo
     JOIN canaries c ON c.id = r.canary_id
     ORDER BY r.fired_at DESC, x.id DESC`,
  )
    .bind(userId, opts.limit ?? -1, opts.canaryIds ? JSON.stringify(opts.canaryIds) : null)
    .all<EventRun>();
  return results.map(lineOf);
}

/**
 * Writes canaries' event lines into D1's `activity` (once each: the line's id is its event's, and a line written is
 * no longer made from the event): before a canary is deleted — its timer events go with its row — and before an
 * export, whose `activity` is the feed.
 */
export async function keepEventLines(ctx: ServiceContext, userId: string, canaryIds?: readonly string[]): Promise<void> {
  await keepActivityLines(ctx, userId, await eventLines(ctx, userId, canaryIds ? { canaryIds } : {}));
}

/** The canaries' event lines as the activity domain reads them (wired in wiring/activity-lines.ts). */
export const canaryEventLines: ActivityLineSource = {
  recent: (ctx, userId, limit) => eventLines(ctx, userId, { limit }),
  keep: (ctx, userId) => keepEventLines(ctx, userId),
};
