import type { TWebhookEventOrigin } from '../../contracts/webhooks';

/** 'Send test event' deliveries: `event_id` = this + a UUID (sent once, never retried). */
export const TEST_EVENT_PREFIX = 'test:';
/** Events a sandbox key simulated (POST /api/sandbox/missed-checkins): this + a UUID. */
export const SANDBOX_EVENT_PREFIX = 'sandbox:';

/** What made a delivery, from its event_id: a real canary miss (the transition's id), a test, or a sandbox key. */
export function eventOrigin(eventId: string): TWebhookEventOrigin {
  if (eventId.startsWith(TEST_EVENT_PREFIX)) return 'test';
  if (eventId.startsWith(SANDBOX_EVENT_PREFIX)) return 'sandbox';
  return 'event';
}
