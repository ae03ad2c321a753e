import { createApp } from './app';
import { runScheduled } from './cron/scheduled';
import { isProduction, type Bindings } from './env';
import { DEVELOPMENT_ONLY_DETAIL, developmentHostAllowed, notConfiguredDetail, problemsOf } from './env-check';
import { log } from './lib/logger';
import { consumeBatch } from './queues/consume';
import { withD1Delay } from './lib/d1-delay';

export { CanaryClock } from './durable/canary-clock';
export { ReleaseClock } from './durable/release-clock';
export { GuardianClock } from './durable/guardian-clock';

const app = createApp();

/** The refusal of a Worker that may not serve this request (env-check.ts), as every error is: `{detail}` JSON. */
const refuse = (status: number, detail: string) => Response.json({ detail }, { status, headers: { 'cache-control': 'no-store' } });

/** What keeps this Worker from working (env-check.ts), logged with what it does instead; empty when configured. */
function unconfigured(env: Bindings, instead: string): string[] {
  const problems = problemsOf(env);
  if (problems.length) log.error(`${instead}: the Worker is not configured`, { problems: problems.join('; ') });
  return problems;
}

export default {
  fetch: (request, env, ctx) => {
    const problems = unconfigured(env, 'request refused');
    if (problems.length) return refuse(503, notConfiguredDetail(problems));
    if (!isProduction(env) && !developmentHostAllowed(env, request.url)) return refuse(403, DEVELOPMENT_ONLY_DETAIL);
    return app.fetch(request, withD1Delay(env), ctx);
  },
  queue: (batch, env) => {
    if (unconfigured(env, 'queue batch retried').length) {
      // Kept for when the Worker is configured: nothing is lost, nothing is done half-configured.
      batch.retryAll();
      return Promise.resolve();
    }
    return consumeBatch(batch, withD1Delay(env));
  },
  scheduled: (controller, env, ctx) => {
    if (unconfigured(env, 'cron run skipped').length) return;
    ctx.waitUntil(runScheduled(controller, withD1Delay(env)));
  },
} satisfies ExportedHandler<Bindings>;
