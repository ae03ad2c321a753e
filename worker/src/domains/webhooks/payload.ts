import type { TDeathConfirmedPayload, TMissedCheckinsPayload, WebhookEvent } from '../../contracts/webhooks';
import type { MissedCheckinsEvent } from '../../contracts/jobs';

/**
 * The body of a `missed_checkins` webhook: Standard Webhooks' `{type, timestamp, data}` with the canary
 * event's fields and the sample payload's fields (`user_id`, `event`, `misses`; docs/product.md "Developer API
 * and webhooks") at the top of `data`. `timestamp` is when the miss was recorded, so the body (and its
 * signature input) is the same on every retry.
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

/** The body of a `death_confirmed` webhook (the ladder's confirmation; `timestamp` = confirmed_at). */
export function deathConfirmedPayload(
  r: { user_id: string; report_id: string; reported_at: Date; window_ends_at: Date; confirmed_at: Date },
  opts: { sandbox?: boolean } = {},
): TDeathConfirmedPayload {
  return {
    type: 'death_confirmed',
    timestamp: r.confirmed_at.toISOString(),
    data: {
      user_id: r.user_id,
      event: 'death_confirmed',
      report_id: r.report_id,
      reported_at: r.reported_at.toISOString(),
      window_ends_at: r.window_ends_at.toISOString(),
      confirmed_at: r.confirmed_at.toISOString(),
      ...(opts.sandbox ? { sandbox: true as const } : {}),
    },
  };
}

/** 'Send test event' for an endpoint of `event`: its sample, marked `test: true`. */
export function testPayloadFor(event: WebhookEvent, userId: string, at: Date, sandbox: boolean): TMissedCheckinsPayload | TDeathConfirmedPayload {
  if (event === 'missed_checkins') return testPayload(userId, at, sandbox);
  const ts = new Date(Math.floor(at.getTime() / 1000) * 1000);
  const sample = deathConfirmedPayload(
    {
      user_id: userId,
      report_id: '00000000-0000-4000-8000-000000000000',
      reported_at: new Date(ts.getTime() - 72 * 3_600_000),
      window_ends_at: ts,
      confirmed_at: ts,
    },
    { sandbox },
  );
  return { ...sample, data: { ...sample.data, test: true } };
}
