import { env, runInDurableObject } from 'cloudflare:test';
import { clockOf } from '../../src/domains/canary/canary-timer';
import type { CanaryClock } from '../../src/durable/canary-clock';

/** A queue that is down: every send throws (the PROJECTIONS queue in the lagging-projection tests). */
export const queueDown = {
  send: async () => {
    throw new Error('queue unavailable');
  },
  sendBatch: async () => {
    throw new Error('queue unavailable');
  },
} as unknown as Queue;

/** A queue that accepts every send and delivers nothing: a message dropped after its last retry. */
export const queueLosing = {
  send: async () => undefined,
  sendBatch: async () => undefined,
} as unknown as Queue;

/** A queue that accepts every send and keeps it here: `sends` counts the calls, `bodies` holds what they carried. */
export function queueRecording() {
  const bodies: Record<string, unknown>[] = [];
  let sends = 0;
  const queue = {
    send: async (body: unknown) => {
      sends += 1;
      bodies.push(body as Record<string, unknown>);
    },
    sendBatch: async (messages: readonly { body: unknown }[]) => {
      sends += 1;
      for (const m of messages) bodies.push(m.body as Record<string, unknown>);
    },
  } as unknown as Queue;
  return { queue, bodies, sends: () => sends };
}

/** D1 that prepares statements but refuses every batch (a write that fails), for what falls back to a queue. */
export function dbRefusingBatches(): D1Database {
  return {
    prepare: (sql: string) => env.DB.prepare(sql),
    batch: async () => {
      throw new Error('D1 unavailable');
    },
  } as unknown as D1Database;
}

/** Runs `fn` inside a canary's Durable Object with some of its bindings replaced (restored afterwards). */
export async function insideClock<T>(canaryId: string, bindings: Partial<typeof env>, fn: (clock: CanaryClock) => Promise<T>): Promise<T> {
  return runInDurableObject(clockOf(env, canaryId), async (instance: CanaryClock) => {
    const own = instance as unknown as { env: typeof env };
    const real = own.env;
    own.env = { ...real, ...bindings };
    try {
      return await fn(instance);
    } finally {
      own.env = real;
    }
  });
}

/**
 * A token check-in that reaches the canary's object and whose projection never leaves the Worker (its
 * send lost with its isolate, or the PROJECTIONS queue down): D1 does not hear of it until the object's
 * next wake or a settle.
 */
export async function checkInWithQueueDown(canaryId: string, at: number) {
  const entry = { event_id: crypto.randomUUID(), at, source: 'ping' as const };
  const accepted = await insideClock(canaryId, { PROJECTIONS: queueDown }, (clock) => clock.checkIn(canaryId, null, entry));
  if (!accepted) throw new Error('the canary object refused the check-in');
  return entry;
}

/** The object's SQL statements run while `fn` ran, each with the rows it wrote (what Cloudflare bills: docs/performance.md). */
export async function statementsRunBy(sql: SqlStorage, fn: () => Promise<unknown>): Promise<{ query: string; rowsWritten: number }[]> {
  const proto = Object.getPrototypeOf(sql) as { exec: (query: string, ...bindings: unknown[]) => { rowsWritten: number } };
  const exec = proto.exec;
  const run: { query: string; cursor: { rowsWritten: number } }[] = [];
  proto.exec = function (this: unknown, query: string, ...bindings: unknown[]) {
    const cursor = exec.call(this, query, ...bindings);
    run.push({ query, cursor });
    return cursor;
  };
  try {
    await fn();
  } finally {
    proto.exec = exec;
  }
  return run.map(({ query, cursor }) => ({ query, rowsWritten: cursor.rowsWritten }));
}
