import type { Canary } from '@afterword/db/schema';
import type { TCanary } from '../../contracts/canary';
import { canaryHealth } from '../../contracts/canary-health';
import type { ServiceContext } from '../../env';
import { deriveCanaryToken } from './canary-token';

/** A canary as the API shows it to its owner: with its token, deadline and health at `now`. */
export async function toCanaryView(ctx: ServiceContext, canary: Canary): Promise<TCanary> {
  const health = canaryHealth({ lastCheckInMs: canary.last_check_in.getTime(), intervalSeconds: canary.interval_seconds }, ctx.now().getTime());
  return {
    id: canary.id,
    name: canary.name,
    interval_seconds: canary.interval_seconds,
    active: canary.active,
    token: await deriveCanaryToken(ctx.env, canary.id, canary.token_version),
    last_check_in: canary.last_check_in.toISOString(),
    deadline: new Date(health.deadlineMs).toISOString(),
    status: health.status,
    misses: health.misses,
    created_at: canary.created_at.toISOString(),
  };
}
