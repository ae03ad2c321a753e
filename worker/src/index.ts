import { createApp } from './app';
import { runScheduled } from './cron/scheduled';
import type { Bindings } from './env';
import { consumeBatch } from './queues/consume';
import { withD1Delay } from './lib/d1-delay';

export { CanaryClock } from './durable/canary-clock';
export { ReleaseClock } from './durable/release-clock';
export { GuardianClock } from './durable/guardian-clock';

const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, withD1Delay(env), ctx),
  queue: (batch, env) => consumeBatch(batch, withD1Delay(env)),
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, withD1Delay(env))),
} satisfies ExportedHandler<Bindings>;
