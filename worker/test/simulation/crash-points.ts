import { AsyncLocalStorage } from 'node:async_hooks';
import type { Usage } from './costs';
import type { FaultRates } from './faults';
import type { Random } from './random';

/**
 * A crash between two steps of a call (faults.ts, `crashMidCall`): an object call or a queue consumer's batch
 * dies right after one of its outside effects — a D1 round trip that committed, a queue send that was
 * accepted — and before the next. What it did until then stands; nothing after it happens: no catch or
 * finally of the code under test gets to write or send anything more (every later D1 round trip or queue
 * send of the dead call fails at once), an object is reset (`ctx.abort()`: what it wrote to its own storage
 * and had not made durable is gone), a consumer's whole batch comes back, its acks unheard, and a request's
 * person gets an error (the runtime's 500) and acts on it as they would: tries again later, not knowing what
 * the dead request had written. Work a request left running (`waitUntil`) dies with it.
 *
 * Each call the simulation hands to the Worker's code (instrument.ts for objects, sim-queues.ts for
 * consumers, run-simulation.ts `request` for people's requests) runs inside `runAsCall`; the bindings'
 * wrappers ask `beforeStep` and `afterStep` where they are.
 */
export interface Call {
  kind: 'object' | 'consumer' | 'request';
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

/** Before a step: a dead call takes no more steps. */
export function beforeStep(where: string) {
  if (current.getStore()?.crashed) throw new SimulatedCrash(where);
}

/**
 * The run's crash after a step, for the bindings' wrappers: after a step took effect, the call it belongs to crashes
 * there at `rates.crashMidCall` while faults are on (drawn from the run's seed, and only inside a call), counted in
 * `usage.midCallCrashes`.
 */
export function crashesAfterSteps(usage: Usage, switches: { faults: boolean }, rates: FaultRates, r: Random): (where: string) => void {
  return (where) => afterStep(where, () => switches.faults && r.chance(rates.crashMidCall), usage);
}

/**
 * An object namespace whose stubs, got inside a call (by the Worker's own code), kill their caller after an object
 * call took effect, at `rates.crashMidCall`: a request, a consumer's batch or another object dying while its call to
 * an object is in flight — the object's call completes (what it did stands) and its answer reaches no one. The
 * runtime does not carry the caller's call into the object, so it is caught here, on the caller's side. Stubs got
 * outside any call (the simulation's own) are the runtime's own.
 */
export function crashingCallersOf(ns: DurableObjectNamespace, usage: Usage, switches: { faults: boolean }, rates: FaultRates, r: Random): () => void {
  const get = ns.get;
  ns.get = function (this: DurableObjectNamespace, ...args: Parameters<DurableObjectNamespace['get']>) {
    const stub = get.apply(this, args);
    if (!current.getStore()) return stub;
    return new Proxy(stub, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function' || typeof prop === 'symbol' || prop === 'then') return value;
        return async (...a: unknown[]) => {
          const caller = current.getStore();
          // Reflect.apply: an RPC method's own `apply` would be taken for a remote method of that name.
          const answer = await Reflect.apply(value as (...x: unknown[]) => Promise<unknown>, target, a);
          try {
            afterStep('an object call', () => switches.faults && r.chance(rates.crashMidCall), usage, caller);
          } catch (err) {
            usage.inFlightCrashes += 1;
            throw err;
          }
          return answer;
        };
      },
    });
  } as DurableObjectNamespace['get'];
  return () => {
    ns.get = get;
  };
}

function afterStep(where: string, draw: () => boolean, usage: Usage, call: Call | undefined = current.getStore()) {
  if (!call || call.crashed || !draw()) return;
  call.crashed = true;
  usage.midCallCrashes[call.kind] += 1;
  // abort() throws the reset's own error on workerd; the throw below stands for the consumer, and for a
  // runtime that returns from abort.
  call.abort?.();
  throw new SimulatedCrash(where);
}
