import type { ServiceContext } from '../../env';
import { clockOf } from './canary-timer';
import type { RecordedBy } from './plan-wake';

export type { RecordedBy } from './plan-wake';

/**
 * Runs one canary's engine at the context's clock, in its Durable Object — the record of the canary's
 * clock (docs/decisions/canary-engine.md): records what is due (plan-wake.ts), emits the misses that
 * count, and writes what it recorded into D1 before returning. Safe to run any number of times. Used by
 * the reconciler (which also arms the timer) and by tests with a controlled clock; the object's own alarm
 * runs the same engine and sends its D1 writes through the PROJECTIONS queue instead.
 * Returns when this canary next needs attention (null: it is gone).
 */
export async function advanceCanary(
  ctx: ServiceContext,
  canaryId: string,
  recordedBy: RecordedBy,
  opts: { armsTimer?: boolean } = {},
): Promise<{ nextDueAt: Date | null }> {
  const next = await clockOf(ctx.env, canaryId).advanceAt(canaryId, ctx.now().getTime(), recordedBy, { arm: opts.armsTimer ?? false });
  return { nextDueAt: next == null ? null : new Date(next) };
}
