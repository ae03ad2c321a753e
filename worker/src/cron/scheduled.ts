import { createServiceContext, type Bindings } from '../env';
import { log } from '../lib/logger';
import { sweepExpired } from './sweep-expired';

/** The every-minute cron. The canary reconciler (issue 3) joins it here. */
export async function runScheduled(controller: ScheduledController, env: Bindings) {
  const swept = await sweepExpired(createServiceContext(env, () => new Date(controller.scheduledTime)));
  if (swept.sessions || swept.rateLimits) log.info('swept expired rows', swept);
}
