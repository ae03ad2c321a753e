import type { Bindings } from '../../../env';
import { log } from '../../../lib/logger';

const clockOf = (env: Bindings, messageId: string) => env.RELEASE_CLOCK.get(env.RELEASE_CLOCK.idFromName(messageId));

/**
 * Runs a message's ReleaseClock now (it applies what is due and arms its alarm for the next step).
 * A failure is logged, not thrown: the row is saved, and the reconciler re-syncs every open message
 * whose timer is missing or overdue. So that it can, a scheduled message's timer is then marked unknown: the
 * sync was asked for because something moved its next wake (a death confirmed, consent allowed again), and
 * the timer D1 holds may be a later one the reconciler would wait for. An armed message's timer is the end of
 * its window, written by the arming itself (transitions.ts `armMessage`).
 */
export async function syncReleaseTimer(env: Bindings, messageId: string): Promise<number | null> {
  try {
    return await clockOf(env, messageId).sync(messageId);
  } catch (err) {
    log.error('could not sync release timer; the reconciler will repair it', { message_id: messageId, error: String(err) });
    await env.DB.prepare("UPDATE messages SET timer_due_at = NULL WHERE id = ? AND status = 'scheduled' AND timer_due_at IS NOT NULL")
      .bind(messageId)
      .run()
      .catch(() => log.error('could not mark the release timer unknown', { message_id: messageId }));
    return null;
  }
}
