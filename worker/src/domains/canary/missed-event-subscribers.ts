import type { Bindings } from '../../env';
import type { MissedCheckinsEvent } from './emit-missed-events';

/**
 * Who consumes a `missed_checkins` event. The release engine (arming messages with
 * missed_checkins rules) and webhooks (signed POSTs) add themselves here; each must be idempotent on
 * `event_id`, because the queue delivers at least once. Today the event is recorded (transition and
 * activity rows) and has no other consumer yet.
 */
export type MissedCheckinsSubscriber = (event: MissedCheckinsEvent, env: Bindings) => Promise<void>;

export const missedCheckinsSubscribers: MissedCheckinsSubscriber[] = [];

export async function dispatchMissedCheckins(event: MissedCheckinsEvent, env: Bindings) {
  for (const subscriber of missedCheckinsSubscribers) await subscriber(event, env);
}
