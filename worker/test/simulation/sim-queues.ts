import { env } from 'cloudflare:test';
import { vi } from 'vitest';
import worker from '../../src/index';
import type { Usage } from './costs';
import { beforeStep, type Call, crashesAfterSteps, runAsCall } from './crash-points';
import type { FaultRates } from './faults';
import type { Random } from './random';
import type { Switches } from './instrument';

/**
 * The three queues (wrangler.toml), held here instead of in the local runtime so that they run on the
 * simulation's clock: a send is recorded with its delivery time, and `deliverDue` hands what is due to
 * the Worker's real `queue` handler (worker/src/index.ts) in batches of up to 100, as Cloudflare would —
 * with the faults of faults.ts: sends that fail after the caller committed, deliveries held back,
 * reordered, delivered twice, and messages every attempt of which fails until they go to the dead-letter
 * queue, which nothing consumes.
 */
const QUEUES = {
  JOBS: 'afterword-jobs',
  DELIVERIES: 'afterword-deliveries',
  PROJECTIONS: 'afterword-projections',
} as const;
type Binding = keyof typeof QUEUES;
/** wrangler.toml: max_retries = 10 on every consumer. */
const MAX_RETRIES = 10;
const BATCH = 100;
const CHUNK_BYTES = 64 * 1024;

interface Held {
  id: string;
  binding: Binding;
  body: unknown;
  dueAt: number;
  attempts: number;
  lost: boolean;
  redeliver: boolean;
  chunks: number;
}

export interface QueueStats {
  sent: number;
  sendFailures: number;
  delayed: number;
  redelivered: number;
  deadLettered: number;
  retried: number;
}

export class SimQueues {
  private held: Held[] = [];
  private seq = 0;
  readonly stats: QueueStats = { sent: 0, sendFailures: 0, delayed: 0, redelivered: 0, deadLettered: 0, retried: 0 };

  /** A crash of the sending call right after a send was accepted (crash-points.ts). */
  private readonly crashAfter: (where: string) => void;

  constructor(
    private readonly usage: Usage,
    private readonly switches: Switches,
    private readonly rates: FaultRates,
    private readonly r: Random,
  ) {
    this.crashAfter = crashesAfterSteps(usage, switches, rates, r);
  }

  install(): () => void {
    const spies = (Object.keys(QUEUES) as Binding[]).flatMap((binding) => {
      const q = env[binding] as Queue;
      return [
        vi.spyOn(q, 'send').mockImplementation(async (body, opts) => {
          this.accept(binding, [{ body, delaySeconds: opts?.delaySeconds }]);
          return undefined as unknown as QueueSendResponse;
        }),
        vi.spyOn(q, 'sendBatch').mockImplementation(async (messages, opts) => {
          const list = [...messages];
          // Cloudflare refuses more than 100 messages in one sendBatch (the local runtime throws too).
          if (list.length > BATCH) throw new Error(`sendBatch of ${list.length} messages: Queues accept at most ${BATCH}`);
          this.accept(
            binding,
            list.map((m) => ({ body: m.body, delaySeconds: m.delaySeconds ?? opts?.delaySeconds })),
          );
          return undefined as unknown as QueueSendBatchResponse;
        }),
      ];
    });
    return () => {
      for (const s of spies) s.mockRestore();
    };
  }

  private accept(binding: Binding, messages: { body: unknown; delaySeconds?: number }[]) {
    beforeStep('queue send');
    const now = Date.now();
    if (this.switches.faults && this.r.chance(this.rates.sendFails)) {
      this.stats.sendFailures += 1;
      throw new Error('queue send failed (simulated)');
    }
    for (const m of messages) {
      const chunks = Math.max(1, Math.ceil(JSON.stringify(m.body).length / CHUNK_BYTES));
      const faults = this.switches.faults;
      const delayed = faults && this.r.chance(this.rates.delay);
      if (delayed) this.stats.delayed += 1;
      this.held.push({
        id: `sim-${++this.seq}`,
        binding,
        body: m.body,
        dueAt: now + (m.delaySeconds ?? 0) * 1000 + (delayed ? Math.round(this.r.between(0, this.rates.queueDelayMaxMs)) : 0),
        attempts: 0,
        lost: faults && this.r.chance(this.rates.lostAfterRetries),
        redeliver: faults && this.r.chance(this.rates.redeliver),
        chunks,
      });
      this.stats.sent += 1;
      if (this.switches.counting) {
        this.usage.queueOps += chunks; // the write
        this.usage.queueMessages += 1;
        const type = String((m.body as { type?: unknown } | null)?.type ?? binding);
        this.usage.queueMessagesByType[type] = (this.usage.queueMessagesByType[type] ?? 0) + 1;
      }
    }
    this.crashAfter('queue send');
  }

  /** Messages still waiting (delayed, retrying). */
  get waiting() {
    return this.held.length;
  }

  nextDue(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const h of this.held) next = Math.min(next, h.dueAt);
    return next;
  }

  /** Delivers everything due at `now` (and what those deliveries send for now), shuffled, in batches of up to 100. */
  async deliverDue(now: number, maxRounds = 25): Promise<void> {
    for (let round = 0; round < maxRounds; round++) {
      const due = this.held.filter((h) => h.dueAt <= now);
      if (!due.length) return;
      this.held = this.held.filter((h) => h.dueAt > now);
      // Reordered: Queues promise no order, within a batch or across them.
      for (let i = due.length - 1; i > 0; i--) {
        const j = Math.floor(this.r.next() * (i + 1));
        [due[i], due[j]] = [due[j]!, due[i]!];
      }
      const batches: Held[][] = [];
      for (const binding of Object.keys(QUEUES) as Binding[]) {
        const mine = due.filter((h) => h.binding === binding);
        for (let i = 0; i < mine.length; i += BATCH) batches.push(mine.slice(i, i + BATCH));
      }
      await Promise.all(batches.map((b) => this.runBatch(b, now)));
    }
  }

  private async runBatch(items: Held[], now: number) {
    const outcome = new Map<Held, { retry: number | undefined } | 'ack'>();
    const live: Held[] = [];
    for (const h of items) {
      if (this.switches.counting) this.usage.queueOps += h.chunks; // the read
      // Lost after its retries: every attempt fails; it is read MAX_RETRIES + 1 times and dead-lettered.
      if (h.lost) {
        this.stats.deadLettered += 1;
        if (this.switches.counting) this.usage.queueOps += h.chunks * MAX_RETRIES;
      } else live.push(h);
    }
    if (!live.length) return;
    const messages = live.map((h) => ({
      id: h.id,
      timestamp: new Date(now),
      body: h.body,
      attempts: h.attempts + 1,
      ack: () => void outcome.set(h, 'ack'),
      retry: (o?: { delaySeconds?: number }) => void outcome.set(h, { retry: o?.delaySeconds }),
    }));
    const batch = {
      queue: QUEUES[live[0]!.binding],
      messages,
      ackAll: () => {
        for (const h of live) outcome.set(h, 'ack');
      },
      retryAll: (o?: { delaySeconds?: number }) => {
        for (const h of live) outcome.set(h, { retry: o?.delaySeconds });
      },
    } as unknown as MessageBatch<unknown>;
    const started = performance.now();
    let threw = false;
    // A crash between two of its steps (crash-points.ts) kills the invocation: its acks are never heard.
    const call: Call = { kind: 'consumer', crashed: false };
    try {
      await runAsCall(call, () => (worker.queue as (b: MessageBatch<unknown>, e: typeof env) => Promise<void>)(batch, env));
    } catch {
      threw = true;
    }
    if (call.crashed) {
      outcome.clear();
      threw = true;
    }
    if (this.switches.counting) {
      this.usage.workerRequests += 1;
      this.usage.workerWallMs += performance.now() - started;
    }
    for (const h of live) {
      const o = outcome.get(h) ?? (threw ? { retry: undefined } : 'ack');
      if (o === 'ack') {
        if (this.switches.counting) this.usage.queueOps += h.chunks; // the delete
        if (h.redeliver) {
          // At-least-once: the same message comes again later.
          this.stats.redelivered += 1;
          this.held.push({ ...h, redeliver: false, dueAt: now + Math.round(this.r.between(60_000, this.rates.queueDelayMaxMs)) });
        }
        continue;
      }
      h.attempts += 1;
      this.stats.retried += 1;
      if (h.attempts > MAX_RETRIES) {
        this.stats.deadLettered += 1;
        continue;
      }
      h.dueAt = now + Math.max(60, o.retry ?? 0) * 1000;
      this.held.push(h);
    }
  }
}
