import type { Bindings } from '../../../env';
import { log } from '../../../lib/logger';

const clockOf = (env: Bindings, messageId: string) => env.RELEASE_CLOCK.get(env.RELEASE_CLOCK.idFromName(messageId));

/**
 * Runs a message's ReleaseClock now (it applies what is due and arms its alarm for the next step).
 * A failure is logged, not thrown: the row is saved, and the reconciler re-syncs every open message
 * whose timer is missing or overdue within a minute.
 */
export async function syncReleaseTimer(env: Bindings, messageId: string): Promise<number | null> {
  try {
    return await clockOf(env, messageId).sync(messageId);
  } catch (err) {
    log.error('could not sync release timer; the reconciler will repair it', { message_id: messageId, error: String(err) });
    return null;
  }
}
