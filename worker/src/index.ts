import { createApp } from './app';
import { runScheduled } from './cron/scheduled';
import type { Bindings } from './env';
import { consumeBatch } from './queues/consume';

export { CanaryClock } from './durable/canary-clock';
export { ReleaseClock } from './durable/release-clock';
export { GuardianClock } from './durable/guardian-clock';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeBatch(batch, env),
  scheduled: (controller, env, ctx) => ctx.waitUntil(runScheduled(controller, env)),
} satisfies ExportedHandler<Bindings>;
