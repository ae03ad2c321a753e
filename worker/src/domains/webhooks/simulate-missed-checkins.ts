import { canaryHealth, clockStateOfStored } from '../../contracts/canary-health';
import type { TSimulatedMissedCheckins, TSimulateMissedCheckinsInput } from '../../contracts/webhooks';
import type { ServiceContext } from '../../env';
import { AppError, notFound } from '../../lib/errors';
import type { Principal } from '../../middleware/context';
import { canaryStatus, findOwnCanary } from '../canary/list-canaries';
import type { MissedCheckinsEvent } from '../../contracts/jobs';
import { SANDBOX_EVENT_PREFIX } from './event-origin';
import { fanOutMissedCheckins } from './fan-out';

export const SIMULATE_NEEDS_SANDBOX_KEY =
  "Simulated events are made with a sandbox API key (afw_test_…); a live key acts for real, and a signed-in person can use 'Send test event' on the Developer page";
export const NO_CANARY_TO_SIMULATE = 'You have no active canary: create one, or pass canary_id';

/**
 * POST /api/sandbox/missed-checkins: what a sandbox key is for (docs/decisions/webhooks.md "Sandbox").
 * Builds the `missed_checkins` event the canary would send for its current cycle — real canary id,
 * deadline and miss count (at least 1) — marks it `sandbox: true`, and hands it to the webhook fan-out
 * only: signed, retried and logged like a real event, but the canary, its messages, its recipients and
 * the owner's notices never see it. Nothing else subscribes to a simulated event.
 */
export async function simulateMissedCheckins(
  ctx: ServiceContext,
  principal: Principal,
  input: TSimulateMissedCheckinsInput,
): Promise<TSimulatedMissedCheckins> {
  if (principal.via !== 'key' || !principal.sandbox) throw new AppError('FORBIDDEN', SIMULATE_NEEDS_SANDBOX_KEY);
  const userId = principal.user.id;
  const canaryId = input.canary_id ?? (await canaryStatus(ctx, userId)).canary_id;
  if (!canaryId) throw notFound(NO_CANARY_TO_SIMULATE);
  const canary = await findOwnCanary(ctx, userId, canaryId);
  const now = ctx.now();
  const health = canaryHealth(clockStateOfStored(canary), now.getTime());
  const event: MissedCheckinsEvent = {
    type: 'missed_checkins',
    event_id: `${SANDBOX_EVENT_PREFIX}${crypto.randomUUID()}`,
    user_id: userId,
    canary_id: canary.id,
    misses: Math.max(1, health.misses),
    deadline: new Date(health.deadlineMs).toISOString(),
    fired_at: now.toISOString(),
  };
  const deliveries = await fanOutMissedCheckins(ctx, event, { sandbox: true });
  return { event_id: event.event_id, canary_id: event.canary_id, misses: event.misses, deadline: event.deadline, sandbox: true, deliveries };
}
