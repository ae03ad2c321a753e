import type { CheckInProjection } from '../../contracts/jobs';
import { isolateFlusher } from '../../lib/isolate-flusher';
import { log } from '../../lib/logger';
import { sendInBatches } from '../../lib/queue-batches';
import { clockOf } from './canary-timer';
import { applyCanaryCheckIns, type CheckInContext } from './check-in-projection';

/**
 * Token check-ins this isolate answered whose D1 projection is not written yet. The canary's object has
 * recorded each one (the record); its copy for D1 leaves from here, together with every other check-in
 * this isolate answered in the same CHECK_IN_SEND_DELAY_MS — one D1 batch for many check-ins, the queue
 * consumer's own (check-in-projection.ts), instead of one queue message per check-in (docs/decisions/canary-engine.md,
 * "Check-in projections"; docs/performance.md: the per-check-in send was a fifth of the check-in's cost, and a
 * queue message is three billed operations).
 *
 * One request at a time (the "sender", lib/isolate-flusher.ts) writes from its waitUntil. What D1 does not take
 * goes to the PROJECTIONS queue as before (its consumer writes it, with retries); a send that fails too hands each
 * canary back to its object, which queues what it holds unsent itself (and re-arms its resend on failure).
 * Nothing depends on this buffer surviving: an object keeps every check-in it did not queue itself as
 * unsent and queues it again at its next wake (idempotent in D1), and whoever decides on D1's copy
 * settles with the object first.
 */
export const CHECK_IN_SEND_DELAY_MS = 50;
/** A sender under constant load hands over after this many rounds (each a wait and a D1 batch: well inside waitUntil's 30 s). */
const MAX_SEND_ROUNDS = 40;

const pending: CheckInProjection[] = [];
const sender = isolateFlusher({ delayMs: CHECK_IN_SEND_DELAY_MS, maxRounds: MAX_SEND_ROUNDS, hasPending: () => pending.length > 0 });

/** Check-ins per D1 batch: the consumer's own bound (a queue delivery of at most 100), well inside a bound parameter's size. */
const CHECK_INS_PER_BATCH = 100;

/**
 * Adds one accepted check-in. Returns the write to hand to waitUntil when this request becomes the
 * sender, or null when one is already on its way (it carries this one too).
 */
export function queueCheckInProjection(ctx: CheckInContext, projection: CheckInProjection): Promise<void> | null {
  pending.push(projection);
  return sender.start(() => writePendingCheckIns(ctx));
}

/** The sender on its way, if any (tests wait for it to start from a quiet isolate). */
export const checkInSender = () => sender.running();

/** Writes everything pending into D1 now; what D1 refuses is queued; what the queue refuses, the canaries' objects queue. */
async function writePendingCheckIns(ctx: CheckInContext): Promise<void> {
  const batch = pending.splice(0);
  const refused: CheckInProjection[] = [];
  for (let i = 0; i < batch.length; i += CHECK_INS_PER_BATCH) {
    const part = batch.slice(i, i + CHECK_INS_PER_BATCH);
    try {
      await applyCanaryCheckIns(ctx, part);
    } catch (err) {
      log.warn('could not write check-ins into D1; queueing them', { check_ins: part.length, error: String(err) });
      refused.push(...part);
    }
  }
  if (!refused.length) return;
  try {
    await sendInBatches(ctx.env.PROJECTIONS, refused);
  } catch (err) {
    const canaries = [...new Set(refused.map((p) => p.canary_id))];
    log.error('could not queue check-ins for D1; their canaries queue them', { check_ins: refused.length, canaries: canaries.length, error: String(err) });
    await Promise.allSettled(canaries.map((id) => clockOf(ctx.env, id).queueUnsent()));
  }
}
