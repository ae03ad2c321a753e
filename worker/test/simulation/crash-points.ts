import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A crash between two steps of a call (faults.ts, `crashMidCall`): an object call or a queue consumer's batch
 * dies right after one of its outside effects — a D1 round trip that committed, a queue send that was
 * accepted — and before the next. What it did until then stands; nothing after it happens: no catch or
 * finally of the code under test gets to write or send anything more (every later D1 round trip or queue
 * send of the dead call fails at once), an object is reset (`ctx.abort()`: what it wrote to its own storage
 * and had not made durable is gone) and a consumer's whole batch comes back, its acks unheard.
 *
 * Each call the simulation hands to the Worker's code (instrument.ts for objects, sim-queues.ts for
 * consumers) runs inside `runAsCall`; the bindings' wrappers ask `beforeStep` and `afterStep` where they are.
 */
export interface Call {
  kind: 'object' | 'consumer';
  /** Set once the call has crashed. */
  crashed: boolean;
  /** Resets the object (objects only). */
  abort?: () => void;
}

export class SimulatedCrash extends Error {
  constructor(where: string) {
    super(`simulated crash between two steps (${where}): the call is dead`);
  }
}

const current = new AsyncLocalStorage<Call>();

/** Runs `fn` as `call`: every step it takes (and any work it leaves running) can crash it. */
export function runAsCall<T>(call: Call, fn: () => T): T {
  return current.run(call, fn);
}

/** The call a step belongs to, if the simulation handed it to the Worker's code. */
export const currentCall = (): Call | undefined => current.getStore();

/** Before a step: a dead call takes no more steps. */
export function beforeStep(where: string) {
  if (current.getStore()?.crashed) throw new SimulatedCrash(where);
}

/**
 * After a step took effect: the call crashes here when `draw()` says so (the caller draws from the run's seed
 * only inside a call, so runs replay). Counts it in `onCrash`.
 */
export function afterStep(where: string, draw: () => boolean, onCrash: (call: Call) => void) {
  const call = current.getStore();
  if (!call || call.crashed || !draw()) return;
  call.crashed = true;
  onCrash(call);
  // abort() throws the reset's own error on workerd; the throw below stands for the consumer, and for a
  // runtime that returns from abort.
  call.abort?.();
  throw new SimulatedCrash(where);
}
