import { createServiceContext, type Bindings } from '../../env';
import { askGuardians } from '../guardian/ask-guardians';
import { armOnMissedCheckins } from '../messages/release/arm-on-missed-checkins';
import { fanOutMissedCheckins } from '../webhooks/fan-out';
import type { MissedCheckinsEvent } from './emit-missed-events';

/**
 * Who consumes a `missed_checkins` event. The release engine (arming messages with
 * missed_checkins rules), webhooks (signed POSTs) and the guardian ladder add themselves here; each must be idempotent on
 * `event_id`, because the queue delivers at least once.
 */
export type MissedCheckinsSubscriber = (event: MissedCheckinsEvent, env: Bindings) => Promise<void>;

export const missedCheckinsSubscribers: MissedCheckinsSubscriber[] = [
  (event, env) => armOnMissedCheckins(createServiceContext(env), event),
  async (event, env) => void (await fanOutMissedCheckins(createServiceContext(env), event)),
  // The guardian ladder: after enough misses, each active guardian is asked "Have you heard from …?".
  async (event, env) => void (await askGuardians(createServiceContext(env), event)),
];

export async function dispatchMissedCheckins(event: MissedCheckinsEvent, env: Bindings) {
  for (const subscriber of missedCheckinsSubscribers) await subscriber(event, env);
}
