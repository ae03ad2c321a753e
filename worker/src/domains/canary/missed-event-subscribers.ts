import { createServiceContext, type Bindings } from '../../env';
import { askGuardians } from '../guardian/ask-guardians';
import { armOnMissedCheckins } from '../messages/release/arm-on-missed-checkins';
import { fanOutMissedCheckins } from '../webhooks/fan-out';
import type { MissedCheckinsEvent } from '../../contracts/jobs';

/**
 * Who consumes a `missed_checkins` event: the release engine (arming messages with missed_checkins
 * rules), webhooks (signed POSTs) and the guardian ladder. Each must be idempotent on `event_id`, because
 * the queue delivers at least once.
 *
 * `reaches` is an SQL condition on the sender (`?1`) that holds whenever the subscriber could do anything
 * for them: one read answers it for every subscriber, and those it rules out are not run. Most senders
 * have no webhook and many no guardian or message, and in a busy minute their events were most of the
 * JOBS consumer's D1 round trips (docs/performance.md). Something the sender adds after the read is seen
 * by the next event, as it would be had it come a moment later.
 */
export interface MissedCheckinsSubscriber {
  reaches: string;
  run: (event: MissedCheckinsEvent, env: Bindings) => Promise<void>;
}

export const missedCheckinsSubscribers: MissedCheckinsSubscriber[] = [
  {
    reaches: "EXISTS (SELECT 1 FROM messages WHERE sender_id = ?1 AND status = 'scheduled')",
    run: (event, env) => armOnMissedCheckins(createServiceContext(env), event),
  },
  {
    reaches: "EXISTS (SELECT 1 FROM webhooks WHERE user_id = ?1 AND event = 'missed_checkins' AND status = 'active')",
    run: async (event, env) => void (await fanOutMissedCheckins(createServiceContext(env), event)),
  },
  {
    // The guardian ladder: after enough misses, each active guardian is asked "Have you heard from …?".
    reaches: "EXISTS (SELECT 1 FROM guardians WHERE owner_id = ?1 AND status = 'active')",
    run: async (event, env) => void (await askGuardians(createServiceContext(env), event)),
  },
];

export async function dispatchMissedCheckins(event: MissedCheckinsEvent, env: Bindings) {
  const reach = await env.DB.prepare(`SELECT ${missedCheckinsSubscribers.map((s, i) => `${s.reaches} AS s${i}`).join(', ')}`)
    .bind(event.user_id)
    .first<Record<string, number>>();
  for (const [i, subscriber] of missedCheckinsSubscribers.entries()) {
    if (reach?.[`s${i}`]) await subscriber.run(event, env);
  }
}
