import { schema } from '@afterword/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../../env';
import { hasConsent } from '../../legal/consent-state';
import type { MissedCheckinsEvent } from '../../../contracts/jobs';
import { deadlineOfStored } from '../../../contracts/canary-health';
import { loadEngineMessage } from './load-message';
import { syncReleaseTimer } from './release-timer';
import { armMessage } from './transitions';
import { settleCanaries } from '../../canary/canary-timer';
import { settleCheckInsOf } from '../../canary/settle-check-ins';

/** The first missed_checkins rule of a message that `misses` satisfies (N ≤ misses), or -1. */
export function firingMissRule(rules: { trigger_type: string; trigger_value: string }[], misses: number): number {
  return rules.findIndex((r) => r.trigger_type === 'missed_checkins' && Number(r.trigger_value) <= misses);
}

/**
 * Subscriber of the canary engine's `missed_checkins` event: arms every scheduled message of the
 * sender with a missed_checkins(N) rule that the count satisfies. An event of a cycle a check-in already
 * ended is stale and changes nothing — this is what keeps a redelivered event from re-arming a message
 * the sender disarmed. The event id is the transition's dedupe key, so a redelivery is a no-op too.
 * Nothing arms while the sender's messages consent is withdrawn (resume-releases.ts catches up).
 */
export async function armOnMissedCheckins(ctx: ServiceContext, event: MissedCheckinsEvent): Promise<void> {
  // Armed ones too: D1 may still show a message armed that a check-in it has not heard of yet disarmed; the
  // settle below applies that check-in (disarming it), and this event may then arm it again, from now.
  const candidates = await ctx.db
    .select({ id: schema.messages.id, rules: schema.messages.rules })
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, event.user_id), inArray(schema.messages.status, ['scheduled', 'armed'])));
  if (!candidates.some((c) => firingMissRule(c.rules, event.misses) >= 0)) return; // nothing this event could arm

  // Whether the event is stale is read from D1, so D1 first agrees with the canary's object: a check-in
  // it has not projected yet still ends the cycle (docs/decisions/canary-engine.md).
  await settleCanaries(ctx.env, [event.canary_id]);
  const [canary] = await ctx.db
    .select({
      last_check_in: schema.canaries.last_check_in,
      interval_seconds: schema.canaries.interval_seconds,
      schedule: schema.canaries.schedule,
      paused_until: schema.canaries.paused_until,
      active: schema.canaries.active,
    })
    .from(schema.canaries)
    .where(eq(schema.canaries.id, event.canary_id))
    .limit(1);
  // The current cycle's deadline (an interval, a calendar schedule or the end of a pause: contracts/canary-health.ts).
  if (!canary?.active || deadlineOfStored(canary) !== Date.parse(event.deadline)) return;
  // Paused by withdrawn consent: the event is dropped; allowing messages again arms from the current run.
  if (!(await hasConsent(ctx, event.user_id, 'messages'))) return;

  const firedAt = Math.min(Date.parse(event.fired_at), ctx.now().getTime());
  for (const candidate of candidates) {
    if (firingMissRule(candidate.rules, event.misses) < 0) continue;
    const loaded = await loadEngineMessage(ctx, candidate.id);
    if (loaded?.message.status !== 'scheduled') continue;
    const index = firingMissRule(loaded.message.rules, event.misses);
    if (index < 0) continue;
    const { applied } = await armMessage(
      ctx,
      loaded,
      index,
      firedAt,
      `${event.misses} missed check-in${event.misses === 1 ? '' : 's'} in a row`,
      `event:${event.event_id}`,
    );
    // The clock releases it at the end of the cancel window (at once when there is none).
    if (applied) await syncReleaseTimer(ctx.env, candidate.id);
  }
}

/**
 * The sender's current run of misses (the highest count emitted in a canary's current cycle): a message
 * created while its owner is already missing check-ins is armed at once if its rule is satisfied.
 */
export async function currentMisses(ctx: ServiceContext, userId: string): Promise<number> {
  // The canaries' objects hold the record; D1's copy of their events and check-ins may lag a moment.
  await settleCheckInsOf(ctx, userId, null, { events: true });
  // The current cycle is picked here, not in SQL: a calendar deadline is not SQL arithmetic.
  const { results } = await ctx.env.DB.prepare(
    `SELECT max(t.misses) AS misses, t.cycle_deadline, c.last_check_in, c.interval_seconds, c.schedule, c.paused_until
     FROM canary_transitions t JOIN canaries c ON c.id = t.canary_id
     WHERE c.user_id = ?1 AND c.active = 1 AND t.kind = 'missed' AND t.emitted_at IS NOT NULL AND t.cycle_deadline > c.last_check_in
     GROUP BY t.canary_id, t.cycle_deadline`,
  )
    .bind(userId)
    .all<{ misses: number; cycle_deadline: number; last_check_in: number; interval_seconds: number; schedule: string | null; paused_until: number | null }>();
  return Math.max(0, ...results.filter((r) => r.cycle_deadline === deadlineOfStored(r)).map((r) => r.misses));
}
