import { env } from 'cloudflare:test';
import { vi } from 'vitest';
import { CanaryClock } from '../../src/durable/canary-clock';
import { EntityClock } from '../../src/durable/entity-clock';
import type { Usage } from './costs';
import { beforeStep, type Call, crashesAfterSteps, crashingCallersOf, runAsCall } from './crash-points';
import { SimulatedD1Error, type FaultRates } from './faults';
import type { Random } from './random';

/**
 * The real bindings, counted and (while `switches.faults`) made to fail, in place: the Worker, its queue
 * consumer and its Durable Objects share these binding objects in the test runtime, so every path is
 * counted without changing a line of worker/src. Installed once per run and removed by `uninstall`.
 */
export interface Switches {
  /** Count operations (off while the simulation itself reads D1 to judge). */
  counting: boolean;
  /** Inject D1 failures. */
  faults: boolean;
}

/** Runs the simulation's own reads: neither counted nor faulted, whatever the switches were (they are put back after). */
export async function quietly<T>(switches: Switches, fn: () => Promise<T>): Promise<T> {
  const { counting, faults } = switches;
  switches.counting = false;
  switches.faults = false;
  try {
    return await fn();
  } finally {
    switches.counting = counting;
    switches.faults = faults;
  }
}

export type ObjectKind = 'canary' | 'release' | 'guardian';
export interface ArmedAlarm {
  kind: ObjectKind;
  id: string;
  at: number;
}

/** Where each object's alarm stands, as read from its own storage after every call to it. */
export class AlarmBook {
  readonly armed = new Map<string, ArmedAlarm>();
  /** The objects called since `takeTouched` last ran: the ones an eviction may hit. */
  private touched = new Map<string, { kind: ObjectKind; id: string }>();
  /**
   * The objects a crash reset since `takeCrashed` last ran: what their alarm is now is whatever of the crashed
   * call had become durable before it, which only a fresh instance can read (run-simulation.ts does).
   */
  private crashed = new Map<string, { kind: ObjectKind; id: string }>();
  noteCrash(kind: ObjectKind, id: string) {
    this.crashed.set(`${kind}:${id}`, { kind, id });
  }
  takeCrashed(): { kind: ObjectKind; id: string }[] {
    const out = [...this.crashed.values()];
    this.crashed.clear();
    return out;
  }
  note(kind: ObjectKind, id: string, at: number | null) {
    const key = `${kind}:${id}`;
    this.touched.set(key, { kind, id });
    if (at === null) this.armed.delete(key);
    else this.armed.set(key, { kind, id, at });
  }
  nextAt(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const a of this.armed.values()) next = Math.min(next, a.at);
    return next;
  }
  takeTouched(): { kind: ObjectKind; id: string }[] {
    const out = [...this.touched.values()];
    this.touched.clear();
    return out;
  }
  /** The alarms due at `now`, removed from the book (running one re-arms it through `note`). */
  takeDue(now: number): ArmedAlarm[] {
    const due: ArmedAlarm[] = [];
    for (const [key, a] of this.armed) {
      if (a.at <= now) {
        due.push(a);
        this.armed.delete(key);
      }
    }
    return due;
  }
}

const CANARY_METHODS = [
  'sync',
  'advanceAt',
  'checkIn',
  'queueUnsent',
  'noteCheckIn',
  'settle',
  'warningDelivered',
  'lastCheckIn',
  'recentCheckIns',
  'stop',
  'alarm',
];
const ENTITY_METHODS = ['sync', 'stop', 'alarm'];

type Restore = () => void;

interface Cursorish {
  rowsRead: number;
  rowsWritten: number;
}

/**
 * The objects' own SQLite storage, counted as Cloudflare bills it: each statement's rows read and written
 * (its cursor's counters, read once the call that ran it is over, so a cursor read lazily is counted
 * whole), one row written per `setAlarm()` (Cloudflare's rule) and, as an upper bound, per key put or
 * deleted through the key-value calls. `deleteAlarm()` is not counted: the test runtime's
 * `runDurableObjectAlarm` calls it before running each alarm (on Cloudflare the runtime clears a fired alarm
 * itself), and the objects call it only when a canary, message or ladder stops. Patched on the storage's prototypes the first
 * time an object is called (the runtime gives no other way to reach them).
 */
class ObjectStorageCounter {
  private pending: { key: string; cursor: Cursorish }[] = [];
  private readonly restores: Restore[] = [];
  private patched = false;
  constructor(
    private readonly usage: Usage,
    private readonly switches: Switches,
  ) {}

  patch(storage: DurableObjectStorage) {
    if (this.patched) return;
    this.patched = true;
    const sqlProto = Object.getPrototypeOf(storage.sql) as { exec: (q: string, ...b: unknown[]) => Cursorish };
    const exec = sqlProto.exec;
    const pending = this.pending;
    const switches = this.switches;
    sqlProto.exec = function (this: unknown, query: string, ...bindings: unknown[]) {
      const cursor = exec.call(this, query, ...bindings);
      if (switches.counting) pending.push({ key: statementKey(query), cursor });
      return cursor;
    };
    this.restores.push(() => {
      sqlProto.exec = exec;
    });
    const storageProto = Object.getPrototypeOf(storage) as Record<string, (...a: unknown[]) => unknown>;
    for (const name of ['setAlarm', 'put', 'delete', 'deleteAll']) {
      const orig = storageProto[name]!;
      const write = (n: number) => this.write(`${name}()`, n);
      storageProto[name] = function (this: unknown, ...a: unknown[]) {
        if (switches.counting) {
          const first = a[0];
          write(name === 'put' && first && typeof first === 'object' ? Object.keys(first).length : Array.isArray(first) ? first.length : 1);
        }
        return orig.apply(this, a);
      };
      this.restores.push(() => {
        storageProto[name] = orig;
      });
    }
  }

  private write(key: string, n: number) {
    if (!n) return;
    this.usage.doRowsWritten += n;
    this.usage.doWritesByStatement[key] = (this.usage.doWritesByStatement[key] ?? 0) + n;
  }

  /** Counts the statements run since the last drain (their cursors are done with by now). */
  drain() {
    for (const { key, cursor } of this.pending.splice(0)) {
      this.usage.doRowsRead += cursor.rowsRead;
      this.write(key, cursor.rowsWritten);
    }
  }

  restore() {
    this.drain();
    for (const undo of this.restores.reverse()) undo();
  }
}

function wrapObjectMethods(
  proto: Record<string, unknown>,
  names: string[],
  kindOf: (self: unknown) => ObjectKind,
  usage: Usage,
  switches: Switches,
  alarms: AlarmBook,
  storage: ObjectStorageCounter,
  crash: () => boolean,
): Restore {
  const originals = new Map<string, unknown>();
  for (const name of names) {
    const orig = proto[name] as (...a: unknown[]) => Promise<unknown>;
    originals.set(name, orig);
    proto[name] = async function (this: { ctx: DurableObjectState; __simDepth?: number }, ...args: unknown[]) {
      // One billed request per RPC call or alarm; a method calling another inside the object is not a new one.
      const outer = !this.__simDepth;
      storage.patch(this.ctx.storage);
      this.__simDepth = (this.__simDepth ?? 0) + 1;
      const started = performance.now();
      let crashed = false;
      // The call as crash-points.ts knows it: a crash between two of its steps resets the object.
      const call: Call | null = outer ? { kind: 'object', crashed: false, abort: () => this.ctx.abort('simulated crash between two steps') } : null;
      try {
        const answer = await (call ? runAsCall(call, () => orig.apply(this, args)) : orig.apply(this, args));
        // Crashed between two steps and caught by the object's own code: the caller still sees the crash.
        if (call?.crashed) throw new Error('simulated crash between two steps: the object was reset');
        // The object crashes at the end of the call, before its answer leaves (faults.ts, `crash`): the runtime
        // discards what the call wrote that was not yet durable and resets the object; the caller sees an error.
        if (outer && crash()) {
          crashed = true;
          usage.crashes += 1;
          // abort() throws the reset's own error; this throw stands in should a runtime return from it.
          this.ctx.abort('simulated crash');
          throw new Error('simulated crash: the object was reset before it answered');
        }
        return answer;
      } finally {
        this.__simDepth -= 1;
        if (call?.crashed) crashed = true;
        if (outer) {
          if (switches.counting) {
            usage.doRequests += 1;
            const key = `${kindOf(this)}.${name}`;
            usage.doCalls[key] = (usage.doCalls[key] ?? 0) + 1;
            usage.doWallMs += performance.now() - started;
            // A crashed call's statements are counted as run (whether Cloudflare bills writes it discarded is not said).
            storage.drain();
            if (!crashed) usage.doBytesByObject[`${kindOf(this)}:${this.ctx.id.toString()}`] = this.ctx.storage.sql.databaseSize;
          }
          // A crashed object's alarm is read again from a fresh instance before the next phase (run-simulation.ts):
          // what the crashed call made durable of it stands, and the book keeps what it had until then.
          if (!crashed) alarms.note(kindOf(this), this.ctx.id.toString(), await this.ctx.storage.getAlarm());
          else alarms.noteCrash(kindOf(this), this.ctx.id.toString());
        }
      }
    };
  }
  return () => {
    for (const [name, orig] of originals) proto[name] = orig;
  };
}

/** The prototype in the D1 binding's chain that owns `_send`: every round trip (statement or batch) passes through it. */
function d1Sender(db: D1Database): Record<string, unknown> {
  let p = Object.getPrototypeOf((db as unknown as { alwaysPrimarySession: object }).alwaysPrimarySession);
  while (p && !Object.hasOwn(p, '_send')) p = Object.getPrototypeOf(p);
  if (!p) throw new Error('the D1 binding has no _send: the local runtime changed, update worker/test/simulation/instrument.ts');
  return p;
}

/** The table a statement writes: the first INSERT INTO / UPDATE / DELETE FROM target in its text. */
function writtenTable(sql: string): string {
  const m = /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM|REPLACE\s+INTO)\s+["`]?(\w+)/i.exec(sql);
  return m?.[1] ?? 'other';
}

/** The release reconciler's scan for lost missed-check-ins events (reconcile-releases.ts missedEventsNotActedOn), by its first words. */
const MISSED_EVENT_SCAN = /^\s*WITH waiting\(sender_id, n\)/;

/** The release reconciler's scan for open messages whose clock is missing (reconcile-releases.ts missingReleaseTimers), by its rules' scan. */
const MISSING_TIMER_SCAN = /json_each\("messages"\.rules\)/;

/** A statement's text for the report: the writing part (after any WITH clause), whitespace folded, cut short. */
function statementKey(sql: string): string {
  const folded = sql.replace(/\s+/g, ' ').trim();
  const write = /\b(?:INSERT|UPDATE|DELETE|REPLACE)\b/i.exec(folded);
  return folded.slice(write?.index ?? 0, (write?.index ?? 0) + 120);
}

export function instrument(usage: Usage, switches: Switches, alarms: AlarmBook, rates: FaultRates, r: Random): Restore {
  const restores: Restore[] = [];
  const storage = new ObjectStorageCounter(usage, switches);
  const crash = () => switches.faults && r.chance(rates.crash);
  const crashAfter = crashesAfterSteps(usage, switches, rates, r);
  restores.push(() => storage.restore());
  restores.push(
    wrapObjectMethods(CanaryClock.prototype as unknown as Record<string, unknown>, CANARY_METHODS, () => 'canary', usage, switches, alarms, storage, crash),
  );
  restores.push(
    wrapObjectMethods(
      EntityClock.prototype as unknown as Record<string, unknown>,
      ENTITY_METHODS,
      (self) => ((self as { idKey: string }).idKey === 'messageId' ? 'release' : 'guardian'),
      usage,
      switches,
      alarms,
      storage,
      crash,
    ),
  );

  // A caller dying while its call to an object is in flight (crash-points.ts).
  for (const ns of [env.CANARY_CLOCK, env.RELEASE_CLOCK, env.GUARDIAN_CLOCK])
    restores.push(crashingCallersOf(ns as unknown as DurableObjectNamespace, usage, switches, rates, r));

  const sender = d1Sender(env.DB);
  const send = sender._send as (...a: unknown[]) => Promise<unknown>;
  sender._send = async function (this: unknown, ...args: unknown[]) {
    beforeStep('D1');
    if (switches.faults && r.chance(rates.d1FailsBefore)) throw new SimulatedD1Error('before');
    if (switches.faults && r.chance(rates.d1Slow)) {
      usage.d1SlowBatches += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.round(r.between(10, rates.d1SlowMaxMs))));
    }
    const result = await send.apply(this, args);
    if (switches.counting) {
      const sqls = ([] as unknown[]).concat(args[1]);
      (Array.isArray(result) ? result : [result]).forEach((one, i) => {
        const meta = (one as { meta?: { rows_read?: number; rows_written?: number } } | null)?.meta;
        const written = meta?.rows_written ?? 0;
        const sql = String(sqls[i] ?? sqls[0] ?? '');
        const statement = statementKey(sql);
        usage.d1Queries += 1;
        usage.d1RowsRead += meta?.rows_read ?? 0;
        usage.d1RowsWritten += written;
        if (meta?.rows_read) usage.d1ReadsByStatement[statement] = (usage.d1ReadsByStatement[statement] ?? 0) + meta.rows_read;
        if (MISSED_EVENT_SCAN.test(sql)) {
          usage.missedEventScans += 1;
          usage.missedEventScanReads += meta?.rows_read ?? 0;
        }
        if (MISSING_TIMER_SCAN.test(sql)) {
          usage.missingTimerScans += 1;
          usage.missingTimerScanReads += meta?.rows_read ?? 0;
        }
        if (written) {
          const table = writtenTable(sql);
          usage.d1WritesByTable[table] = (usage.d1WritesByTable[table] ?? 0) + written;
          usage.d1WritesByStatement[statement] = (usage.d1WritesByStatement[statement] ?? 0) + written;
        }
      });
    }
    crashAfter('D1');
    if (switches.faults && r.chance(rates.d1FailsAfter)) throw new SimulatedD1Error('after');
    return result;
  };
  restores.push(() => {
    sender._send = send;
  });

  const blobs = env.BLOBS as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const [method, cls] of [
    ['put', 'A'],
    ['list', 'A'],
    ['createMultipartUpload', 'A'],
    ['get', 'B'],
    ['head', 'B'],
  ] as const) {
    const real = blobs[method]!.bind(env.BLOBS);
    const spy = vi.spyOn(blobs, method).mockImplementation((...a: unknown[]) => {
      if (switches.counting) usage[cls === 'A' ? 'r2ClassA' : 'r2ClassB'] += 1;
      return real(...a);
    });
    restores.push(() => spy.mockRestore());
  }
  return () => {
    for (const undo of restores.reverse()) undo();
  };
}
