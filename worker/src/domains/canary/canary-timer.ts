import type { CanaryNoteCheckInJob, CanaryStopJob, ClockCheckIn } from '../../contracts/jobs';
import type { Bindings } from '../../env';
import { log } from '../../lib/logger';

/**
 * A canary's wake this much past its time counts as lost (alarms normally fire within a second): the
 * reconciler's lost-timer scan runs such a canary's object (cron/reconcile-canaries.ts), and a check-in
 * re-arms an object that has no alarm armed (durable/canary-clock.ts).
 */
export const OVERDUE_AFTER_MS = 30_000;

/** A canary's Durable Object: the record of its clock (durable/canary-clock.ts). */
export const clockOf = (env: Pick<Bindings, 'CANARY_CLOCK'>, canaryId: string) => env.CANARY_CLOCK.get(env.CANARY_CLOCK.idFromName(canaryId));

/**
 * Arms (or re-checks) a canary's timer. A failure is logged, not thrown: the row is already saved and
 * the reconciler re-arms any canary whose timer is missing or overdue (it scans for them every ten minutes).
 */
export async function armCanaryTimer(env: Bindings, canaryId: string): Promise<number | null> {
  try {
    return await clockOf(env, canaryId).sync(canaryId);
  } catch (err) {
    log.error('could not arm canary timer; the reconciler will repair it', { canary_id: canaryId, error: String(err) });
    return null;
  }
}

/**
 * Tells a canary's object of a check-in the Heartbeat already wrote into D1. A failure is told again through the
 * JOBS queue (`canary_note_check_in`, retried until the object answers), so the object moves its alarm for the new
 * cycle within seconds; and whatever becomes of that, the object reads D1's last check-in before a wake records or
 * sends anything (CanaryClock `catchUpWithD1`). Returns the object's timer when the check-in moved it (D1's copy is
 * then behind), else null.
 */
export async function noteCheckIn(env: Bindings, canaryId: string, entry: ClockCheckIn): Promise<number | null> {
  try {
    return await clockOf(env, canaryId).noteCheckIn(canaryId, entry);
  } catch (err) {
    log.warn('could not tell a canary clock of a check-in; telling it through the queue', { canary_id: canaryId, error: String(err) });
    try {
      await env.JOBS.send({ type: 'canary_note_check_in', canary_id: canaryId, entry } satisfies CanaryNoteCheckInJob);
    } catch (sendErr) {
      log.error('could not queue a canary’s check-in note; its next wake reads D1', { canary_id: canaryId, error: String(sendErr) });
    }
    return null;
  }
}

/**
 * Makes D1 agree with the canaries' objects before a decision that rests on check-ins (a release at the
 * end of a cancel window, a dead-man deletion, the reconciler's repair). `since`: also the first
 * check-in at or after it (a message armed then). Throws if an object cannot answer: deciding without
 * the record could release after a check-in, so the caller waits and tries again.
 */
export async function settleCanaries(env: Bindings, canaryIds: readonly string[], since: number | null = null, opts: { events?: boolean } = {}): Promise<void> {
  await Promise.all(canaryIds.map((id) => clockOf(env, id).settle(since, opts)));
}

/**
 * Stops a deleted canary's object: no more wakes, and its tokens fail at once without a D1 query. A stop
 * that fails is retried through the JOBS queue (`canary_stop`) until the object answers, so a deleted
 * canary's token does not keep checking in until its next wake; if even the queue is down, that wake
 * finds no row and stops the object.
 */
export async function stopCanaryTimer(env: Bindings, canaryId: string): Promise<void> {
  try {
    await clockOf(env, canaryId).stop();
  } catch (err) {
    log.warn('could not stop a canary object; retrying through the queue', { canary_id: canaryId, error: String(err) });
    try {
      await env.JOBS.send({ type: 'canary_stop', canary_id: canaryId } satisfies CanaryStopJob);
    } catch (sendErr) {
      log.error('could not queue a canary stop; it will stop at its next wake', { canary_id: canaryId, error: String(sendErr) });
    }
  }
}
