import { createServiceContext, type Bindings } from '../../env';
import { armOnMissedCheckins } from '../messages/release/arm-on-missed-checkins';
import { fanOutMissedCheckins } from '../webhooks/fan-out';
import type { MissedCheckinsEvent } from './emit-missed-events';

/**
 * Who consumes a `missed_checkins` event. The release engine (arming messages with
 * missed_checkins rules) and webhooks (signed POSTs) add themselves here; each must be idempotent on
 * `event_id`, because the queue delivers at least once.
 */
export type MissedCheckinsSubscriber = (event: MissedCheckinsEvent, env: Bindings) => Promise<void>;

export const missedCheckinsSubscribers: MissedCheckinsSubscriber[] = [
  (event, env) => armOnMissedCheckins(createServiceContext(env), event),
  async (event, env) => void (await fanOutMissedCheckins(createServiceContext(env), event)),
];

export async function dispatchMissedCheckins(event: MissedCheckinsEvent, env: Bindings) {
  for (const subscriber of missedCheckinsSubscribers) await subscriber(event, env);
}
