import type { Bindings } from '../../env';
import { log } from '../../lib/logger';

const clockOf = (env: Bindings, canaryId: string) => env.CANARY_CLOCK.get(env.CANARY_CLOCK.idFromName(canaryId));

/**
 * Arms (or re-checks) a canary's timer. A failure is logged, not thrown: the row is already saved and
 * the reconciler re-arms any canary whose timer is missing or overdue within a minute.
 */
export async function armCanaryTimer(env: Bindings, canaryId: string): Promise<number | null> {
  try {
    return await clockOf(env, canaryId).sync(canaryId);
  } catch (err) {
    log.error('could not arm canary timer; the reconciler will repair it', { canary_id: canaryId, error: String(err) });
    return null;
  }
}

export async function stopCanaryTimer(env: Bindings, canaryId: string): Promise<void> {
  try {
    await clockOf(env, canaryId).stop();
  } catch (err) {
    // The object re-reads D1 at its next wake, finds no canary and stops itself.
    log.warn('could not stop canary timer; it will stop at its next wake', { canary_id: canaryId, error: String(err) });
  }
}
