import type { CheckInProjection } from '../../contracts/jobs';
import type { Bindings } from '../../env';
import { isolateFlusher } from '../../lib/isolate-flusher';
import { log } from '../../lib/logger';
import { sendInBatches } from '../../lib/queue-batches';
import { clockOf } from './canary-timer';

/**
 * Token check-ins this isolate answered whose D1 projection is not queued yet. The canary's object has
 * recorded each one (the record); its copy for D1 leaves from here, together with every other check-in
 * this isolate answered in the same CHECK_IN_SEND_DELAY_MS — one PROJECTIONS send for many check-ins
 * instead of one per check-in from each object (docs/decisions/canary-engine.md, "Check-in projections";
 * docs/performance.md: the per-check-in send was a fifth of the check-in's cost).
 *
 * One request at a time (the "sender", lib/isolate-flusher.ts) sends from its waitUntil. A send that fails hands each canary
 * back to its object, which queues what it holds unsent itself (and re-arms its resend on failure).
 * Nothing depends on this buffer surviving: an object keeps every check-in it did not queue itself as
 * unsent and queues it again at its next wake (idempotent in D1), and whoever decides on D1's copy
 * settles with the object first.
 */
export const CHECK_IN_SEND_DELAY_MS = 50;
/** A sender under constant load hands over after this many rounds (well inside waitUntil's 30 s). */
const MAX_SEND_ROUNDS = 100;

const pending: CheckInProjection[] = [];
const sender = isolateFlusher({ delayMs: CHECK_IN_SEND_DELAY_MS, maxRounds: MAX_SEND_ROUNDS, hasPending: () => pending.length > 0 });

/**
 * Adds one accepted check-in. Returns the send to hand to waitUntil when this request becomes the
 * sender, or null when a send is already on its way (it carries this one too).
 */
export function queueCheckInProjection(env: Bindings, projection: CheckInProjection): Promise<void> | null {
  pending.push(projection);
  return sender.start(() => sendPendingCheckIns(env));
}

/** The sender on its way, if any (tests wait for it to start from a quiet isolate). */
export const checkInSender = () => sender.running();

/** Sends everything pending now; on failure the canaries' objects queue their own. */
async function sendPendingCheckIns(env: Bindings): Promise<void> {
  const batch = pending.splice(0);
  if (!batch.length) return;
  try {
    await sendInBatches(env.PROJECTIONS, batch);
  } catch (err) {
    const canaries = [...new Set(batch.map((p) => p.canary_id))];
    log.error('could not queue check-ins for D1; their canaries queue them', { check_ins: batch.length, canaries: canaries.length, error: String(err) });
    await Promise.allSettled(canaries.map((id) => clockOf(env, id).queueUnsent()));
  }
}
