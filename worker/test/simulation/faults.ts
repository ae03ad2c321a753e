import { DAY, HOUR } from './population';
import type { Random } from './random';

/**
 * What goes wrong, and how often. Every draw comes from the run's seed, so a failure replays. The
 * maxima are what the lateness bound (oracle.ts, LATENESS_BOUND_MS) is written from.
 */
export interface FaultRates {
  /** A queue message delivered a second time, later. */
  redeliver: number;
  /** A queue message held back before its first delivery (up to queueDelayMaxMs). */
  delay: number;
  queueDelayMaxMs: number;
  /** A queue message whose every attempt fails: lost after its retries (the dead-letter queue). */
  lostAfterRetries: number;
  /** A send or sendBatch that throws after the caller committed: a crash between two steps. */
  sendFails: number;
  /** An alarm that runs late (up to alarmLateMaxMs), that never runs, or that runs twice. */
  alarmLate: number;
  alarmLateMaxMs: number;
  alarmLost: number;
  /**
   * In each lapse of a canary's owner — a stretch when they will not check in on it for a whole interval or
   * more (they died, stopped, or are away): its first alarm then is lost. The one case where a lost alarm
   * stands between the owner's conditions and a release, and where only the reconciler's lost-timer scan can
   * bring it back (no check-in, no warning's report arms it again). Drawn once per lapse.
   */
  alarmLostInLapse: number;
  alarmTwice: number;
  /**
   * An object evicted from memory after a phase of a step in which it was called (check-ins, alarms, queue
   * deliveries): whatever it held only in memory is gone — a send it had in flight, a batch it was gathering —
   * and its next call or alarm starts a fresh instance from its storage.
   */
  evict: number;
  /**
   * An object call (an RPC method or an alarm) that crashes at its end, before its answer leaves: the object is
   * reset (`ctx.abort()`), what the call wrote to its storage and was not yet durable is gone, and the caller — a
   * request, a consumer, the runtime's alarm — sees an error. What it sent to D1 or a queue meanwhile may stand.
   */
  crash: number;
  /**
   * A crash between two steps (crash-points.ts): an object call or a queue consumer's batch that dies right
   * after a D1 round trip committed or a queue send was accepted, at that rate per such step. Nothing after
   * it happens; an object is reset, a consumer's batch is delivered again.
   */
  crashMidCall: number;
  /** A D1 round trip that fails before it reaches the database, or after it committed (the caller sees an error). */
  d1FailsBefore: number;
  d1FailsAfter: number;
  /**
   * A D1 round trip held back up to d1SlowMaxMs of real time before it is sent: the simulated clock stands still
   * meanwhile, so what it changes is the order of concurrent work (other people's requests, an object's
   * background send, the Worker's check-in batch) around a slow batch.
   */
  d1Slow: number;
  d1SlowMaxMs: number;
  /** Email outages: how many over the run, each up to outageMaxMs. */
  outagesPer100Days: number;
  outageMaxMs: number;
  /** Text message (sms) outages, drawn apart from email's: how many over the run, each up to outageMaxMs. */
  smsOutagesPer100Days: number;
  /** Push service outages, drawn apart from the others, likewise. */
  pushOutagesPer100Days: number;
}

export const DEFAULT_FAULTS: FaultRates = {
  redeliver: 0.02,
  delay: 0.05,
  queueDelayMaxMs: 30 * 60_000,
  lostAfterRetries: 0.003,
  sendFails: 0.003,
  alarmLate: 0.05,
  alarmLateMaxMs: HOUR,
  alarmLost: 0.01,
  alarmLostInLapse: 0.5,
  alarmTwice: 0.02,
  evict: 0.02,
  crash: 0.002,
  crashMidCall: 0.001,
  d1FailsBefore: 0.001,
  d1FailsAfter: 0.0005,
  d1Slow: 0.0005,
  d1SlowMaxMs: 300,
  outagesPer100Days: 4,
  outageMaxMs: 8 * HOUR,
  smsOutagesPer100Days: 4,
  pushOutagesPer100Days: 4,
};

/** No faults at all: a run that must be exact to the step (the liveness reference). */
export const NO_FAULTS: FaultRates = {
  ...DEFAULT_FAULTS,
  redeliver: 0,
  delay: 0,
  lostAfterRetries: 0,
  sendFails: 0,
  alarmLate: 0,
  alarmLost: 0,
  alarmLostInLapse: 0,
  alarmTwice: 0,
  evict: 0,
  crash: 0,
  crashMidCall: 0,
  d1FailsBefore: 0,
  d1FailsAfter: 0,
  d1Slow: 0,
  outagesPer100Days: 0,
  smsOutagesPer100Days: 0,
  pushOutagesPer100Days: 0,
};

export interface Outage {
  from: number;
  to: number;
  /** Which provider is down (email when absent). */
  channel?: 'email' | 'sms' | 'push';
}

/** The email outages of a run (for the owners without a phone the whole way to reach them is down). */
export function drawOutages(r: Random, rates: FaultRates, days: number, perHundredDays = rates.outagesPer100Days): Outage[] {
  const count = Math.round((perHundredDays * days) / 100);
  const out: Outage[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.round(r.between(0, days * DAY));
    out.push({ from, to: from + Math.round(r.between(HOUR, rates.outageMaxMs)) });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** A D1 error as the binding raises one. */
export class SimulatedD1Error extends Error {
  constructor(when: 'before' | 'after') {
    super(`D1_ERROR: simulated failure (${when === 'before' ? 'not applied' : 'applied, answer lost'})`);
  }
}
