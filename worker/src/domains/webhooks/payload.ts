import type { TMissedCheckinsPayload } from '../../contracts/webhooks';
import type { MissedCheckinsEvent } from '../canary/emit-missed-events';

/**
 * The body of a `missed_checkins` webhook: Standard Webhooks' `{type, timestamp, data}` with the canary
 * event's fields and the SPEC's sample fields (`user_id`, `event`, `misses`) at the top of `data`.
 * `timestamp` is when the miss was recorded, so the body (and its signature input) is the same on every retry.
 */
export function missedCheckinsPayload(event: MissedCheckinsEvent, opts: { sandbox?: boolean } = {}): TMissedCheckinsPayload {
  return {
    type: 'missed_checkins',
    timestamp: event.fired_at,
    data: {
      user_id: event.user_id,
      event: 'missed_checkins',
      canary_id: event.canary_id,
      misses: event.misses,
      deadline: event.deadline,
      ...(opts.sandbox ? { sandbox: true as const } : {}),
    },
  };
}

/** GET /api/developer/webhooks/sample: what an event looks like, with the caller's own user id. */
export function samplePayload(userId: string, at: Date): TMissedCheckinsPayload {
  const deadline = new Date(Math.floor(at.getTime() / 1000) * 1000 - 3_600_000);
  return missedCheckinsPayload({
    type: 'missed_checkins',
    event_id: 'sample',
    user_id: userId,
    canary_id: '00000000-0000-4000-8000-000000000000',
    misses: 1,
    deadline: deadline.toISOString(),
    fired_at: deadline.toISOString(),
  });
}

/** 'Send test event': the sample, marked `test: true` so a receiver can tell it from a real miss. */
export function testPayload(userId: string, at: Date, sandbox: boolean): TMissedCheckinsPayload {
  const sample = samplePayload(userId, at);
  return { ...sample, timestamp: at.toISOString(), data: { ...sample.data, ...(sandbox ? { sandbox: true as const } : {}), test: true } };
}
