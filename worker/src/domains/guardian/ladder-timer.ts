import type { Bindings } from '../../env';
import { log } from '../../lib/logger';

const clockOf = (env: Bindings, ownerId: string) => env.GUARDIAN_CLOCK.get(env.GUARDIAN_CLOCK.idFromName(ownerId));

/**
 * Runs the owner's GuardianClock now: it applies what is due (advanceLadder) and arms its alarm for the
 * next step. A failure is logged, not thrown: the rows are saved, and the every-minute reconciler
 * advances and re-arms every open report whose timer is missing or overdue.
 */
export async function syncGuardianClock(env: Bindings, ownerId: string): Promise<number | null> {
  try {
    return await clockOf(env, ownerId).sync(ownerId);
  } catch (err) {
    log.error('could not sync guardian clock; the reconciler will repair it', { owner_id: ownerId, error: String(err) });
    return null;
  }
}

export async function stopGuardianClock(env: Bindings, ownerId: string): Promise<void> {
  try {
    await clockOf(env, ownerId).stop();
  } catch (err) {
    // The object re-reads D1 at its next wake, finds no open report and stops itself.
    log.warn('could not stop guardian clock; it will stop at its next wake', { owner_id: ownerId, error: String(err) });
  }
}
