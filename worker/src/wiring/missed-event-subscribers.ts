import type { Bindings } from '../env';
import { createServiceContext } from './service-context';
import { askGuardians } from '../domains/guardian/ask-guardians';
import { armOnMissedCheckins } from '../domains/messages/release/arm-on-missed-checkins';
import { fanOutMissedCheckins } from '../domains/webhooks/fan-out';
import type { MissedCheckinsEvent } from '../contracts/jobs';

/**
 * Who consumes a `missed_checkins` event: the release engine (arming messages with missed_checkins
 * rules), webhooks (signed POSTs) and the guardian ladder. Each must be idempotent on `event_id`, because
 * the queue delivers at least once.
 *
 * `reaches(sender)` is an SQL condition on the sender (an SQL expression for their user id) that holds
 * whenever the subscriber could do anything for them: one read answers it for every subscriber and every
 * sender of a queue delivery, and those it rules out are not run. Most senders have no webhook and many no
 * guardian or message, and in a busy minute their events were most of the JOBS consumer's D1 round trips
 * (docs/performance.md). Something the sender adds after the read is seen by the next event, as it would
 * be had it come a moment later.
 */
export interface MissedCheckinsSubscriber {
  reaches: (sender: string) => string;
  run: (event: MissedCheckinsEvent, env: Bindings) => Promise<void>;
}

export const missedCheckinsSubscribers: MissedCheckinsSubscriber[] = [
  {
    reaches: (sender) => `EXISTS (SELECT 1 FROM messages WHERE sender_id = ${sender} AND status = 'scheduled')`,
    run: (event, env) => armOnMissedCheckins(createServiceContext(env), event),
  },
  {
    reaches: (sender) => `EXISTS (SELECT 1 FROM webhooks WHERE user_id = ${sender} AND event = 'missed_checkins' AND status = 'active')`,
    run: async (event, env) => void (await fanOutMissedCheckins(createServiceContext(env), event)),
  },
  {
    // The guardian ladder: after enough misses, each active guardian is asked "Have you heard from …?".
    reaches: (sender) => `EXISTS (SELECT 1 FROM guardians WHERE owner_id = ${sender} AND status = 'active')`,
    run: async (event, env) => void (await askGuardians(createServiceContext(env), event)),
  },
];

/** For each sender, the subscribers that could do anything for them: one D1 read for any number of senders. */
export async function subscribersReaching(env: Pick<Bindings, 'DB'>, senders: readonly string[]): Promise<Map<string, MissedCheckinsSubscriber[]>> {
  const ids = [...new Set(senders)];
  if (!ids.length) return new Map();
  const columns = missedCheckinsSubscribers.map((s, i) => `${s.reaches('j.value')} AS s${i}`).join(', ');
  const { results } = await env.DB.prepare(`SELECT j.value AS sender, ${columns} FROM json_each(?1) j`)
    .bind(JSON.stringify(ids))
    .all<Record<string, number> & { sender: string }>();
  return new Map(results.map((r) => [r.sender, missedCheckinsSubscribers.filter((_, i) => r[`s${i}`])]));
}

/**
 * Runs the event's subscribers. `reaching`: those the caller already read for its sender (the queue
 * consumer reads them for a whole delivery at once); otherwise one read here.
 */
export async function dispatchMissedCheckins(event: MissedCheckinsEvent, env: Bindings, reaching?: readonly MissedCheckinsSubscriber[]) {
  const subscribers = reaching ?? (await subscribersReaching(env, [event.user_id])).get(event.user_id) ?? [];
  for (const subscriber of subscribers) await subscriber.run(event, env);
}
