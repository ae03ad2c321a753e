import { LOST_TIMER_SCAN_EVERY_MINUTES } from '../../src/cron/reconcile-canaries';
import { LOST_EVENT_SCAN_EVERY_MINUTES } from '../../src/domains/messages/reconcile-releases';

/**
 * Every billable operation of a run, counted at the bindings (instrument.ts, sim-queues.ts), and what it
 * costs at Cloudflare's published Workers Paid prices. The table is the one in docs/performance.md
 * ("What a user costs"); included allowances are ignored, so the figure is an upper bound.
 */
export interface Usage {
  /** Worker invocations: HTTP requests, queue consumer batches (cron runs are a fixed cost, counted apart). */
  workerRequests: number;
  /** Wall time of those invocations, ms: an upper bound of their CPU time (I/O waits included). */
  workerWallMs: number;
  cronRuns: number;
  /** Their wall time, ms: the reconciler's scans, a cost that grows with the rows it scans, not with each user's activity. */
  cronWallMs: number;
  /** RPC method calls on Durable Object stubs and alarm invocations. */
  doRequests: number;
  /** The same, by object kind and method (canary.checkIn, release.alarm, …): which paths make them. */
  doCalls: Record<string, number>;
  /** Wall time the objects spent on them, ms (billed duration is wall time while active, 128 MB). */
  doWallMs: number;
  /** The objects' own SQLite storage (billed like D1 since January 2026): rows its statements read and wrote. */
  doRowsRead: number;
  /** Rows written by the objects' statements, plus one per `setAlarm` and per key put or deleted. */
  doRowsWritten: number;
  /** The same, by statement (its text folded and cut as D1's) or storage call (`setAlarm()`, …): which writes to cut. */
  doWritesByStatement: Record<string, number>;
  /** Each object's database size, bytes, as last seen after a call to it: summed, what the objects store. */
  doBytesByObject: Record<string, number>;
  d1Queries: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  /** Rows written by table (the first table a statement inserts into, updates or deletes from): where the writes go. */
  d1WritesByTable: Record<string, number>;
  /** Rows written by statement (its text, whitespace folded, cut at 120 characters): which writes to cut. */
  d1WritesByStatement: Record<string, number>;
  /**
   * Rows read by statement, likewise: reads are nearly free, but a statement whose reads a user-day grow with the
   * number of people (compare two sizes of one seed) reads a whole table per event (docs/performance.md, "A deletion
   * reads what it deletes").
   */
  d1ReadsByStatement: Record<string, number>;
  /** Queue operations: a write per message sent, a read per delivery attempt, a delete per acknowledgement (per 64 KB). */
  queueOps: number;
  queueMessages: number;
  /** Messages sent, by their `type` (canary_wake, canary_check_in, canary_notice, …): which paths make them. */
  queueMessagesByType: Record<string, number>;
  r2ClassA: number;
  r2ClassB: number;
  /** D1's size at the end of the run, bytes. */
  d1Bytes: number;
  /**
   * The stored bytes (D1 without the local outbox, and the objects') halfway through the run, at `halfDay` days:
   * with the end's, the rate at which storage grows once the people's own rows are written (storageAtAge).
   */
  storedAtHalf: { day: number; d1Bytes: number; doBytes: number } | null;
  /** What each table's rows grew by over the run, bytes of their values (run-simulation.ts payloadBytesByTable): where D1's size goes. */
  d1PayloadBytesByTable: Record<string, number>;
  /**
   * The bytes of the local outbox's rows written during the run, their index entries included but not the
   * pages' own overhead: on Cloudflare a provider sends each email and nothing stores it, so they come off
   * D1's size (an underestimate of them, so what remains stays an upper bound).
   */
  outboxBytes: number;
  /** This run's canary rows at its end: what the lost-timer scan reads of them each time it runs. */
  canaryRows: number;
  /** The release reconciler's scan for lost missed-check-ins events (reconcile-releases.ts missedEventsNotActedOn): its runs and the rows they read. */
  missedEventScans: number;
  missedEventScanReads: number;
  /** The release reconciler's scan for open messages whose clock is missing (reconcile-releases.ts missingReleaseTimers): its runs and the rows they read. */
  missingTimerScans: number;
  missingTimerScanReads: number;
  /** Not billed: the D1 round trips the run held back (faults.ts, `d1Slow`), for the report's fault line. */
  d1SlowBatches: number;
  /** Not billed: the object calls that crashed at their end (faults.ts, `crash`), for the report's fault line. */
  crashes: number;
  /** Not billed: the calls that crashed between two steps (faults.ts, `crashMidCall`), objects' and consumers'. */
  midCallCrashes: { object: number; consumer: number; request: number };
  /** Of those, the callers that died while a call of theirs to an object was in flight (the object's call completed). */
  inFlightCrashes: number;
}

export const emptyUsage = (): Usage => ({
  workerRequests: 0,
  workerWallMs: 0,
  cronRuns: 0,
  cronWallMs: 0,
  doRequests: 0,
  doCalls: {},
  doWallMs: 0,
  doRowsRead: 0,
  doRowsWritten: 0,
  doWritesByStatement: {},
  doBytesByObject: {},
  d1Queries: 0,
  d1RowsRead: 0,
  d1RowsWritten: 0,
  d1WritesByTable: {},
  d1WritesByStatement: {},
  d1ReadsByStatement: {},
  queueOps: 0,
  queueMessages: 0,
  queueMessagesByType: {},
  r2ClassA: 0,
  r2ClassB: 0,
  d1Bytes: 0,
  storedAtHalf: null,
  d1PayloadBytesByTable: {},
  outboxBytes: 0,
  canaryRows: 0,
  missedEventScans: 0,
  missedEventScanReads: 0,
  missingTimerScans: 0,
  missingTimerScanReads: 0,
  crashes: 0,
  midCallCrashes: { object: 0, consumer: 0, request: 0 },
  inFlightCrashes: 0,
  d1SlowBatches: 0,
});

/** Workers Paid, as published by Cloudflare (2025, with SQLite-backed objects' storage billed from January 2026); USD. */
export const PRICES = {
  asOf: '2026',
  workerRequestsPerMillion: 0.3,
  workerCpuPerMillionMs: 0.02,
  doRequestsPerMillion: 0.15,
  doGbSecondsPerMillion: 12.5,
  doMemoryGb: 0.128,
  /** SQLite-backed objects' storage, billed since 2026-01-07; `setAlarm()` counts as one row written. */
  doRowsReadPerMillion: 0.001,
  doRowsWrittenPerMillion: 1.0,
  doStoragePerGbMonth: 0.2,
  d1RowsReadPerMillion: 0.001,
  d1RowsWrittenPerMillion: 1.0,
  d1StoragePerGbMonth: 0.75,
  queueOpsPerMillion: 0.4,
  r2ClassAPerMillion: 4.5,
  r2ClassBPerMillion: 0.36,
  r2StoragePerGbMonth: 0.015,
} as const;

export interface CostLine {
  driver: string;
  /** USD per 1,000 users per month. */
  usd: number;
  /** Operations per user-day that produce it. */
  perUserDay: number;
  unit: string;
}

const DAYS_PER_MONTH = 30;
/**
 * The lost-timer scan reads every canary row each time it runs: every tenth minute on Cloudflare
 * (reconcile-canaries.ts LOST_TIMER_SCAN_EVERY_MINUTES), but once a simulated hour here, as the cron runs. The
 * report adds the production cadence's reads as a line of their own (the run's own scans stay in
 * "D1 rows read": a slight double count, so an upper bound).
 */
const LOST_TIMER_SCANS_PER_DAY = (24 * 60) / LOST_TIMER_SCAN_EVERY_MINUTES;

/** The scan for lost missed-check-ins events, once an hour on Cloudflare (reconcile-releases.ts LOST_EVENT_SCAN_EVERY_MINUTES). */
const LOST_EVENT_SCANS_PER_DAY = (24 * 60) / LOST_EVENT_SCAN_EVERY_MINUTES;

/**
 * The reads a scan's production cadence (`perDay`) adds to this run's own scans of it (the run's cron runs once a
 * simulated hour), over the run's `days`: the missed-event scan's reads grow with the scheduled messages that wait
 * for a miss, the missing-timer scan's with the open messages that have no timer.
 */
function scanReadsToAdd(scans: number, reads: number, perDay: number, days: number): number {
  if (!scans) return 0;
  return Math.max(0, (reads / scans) * perDay * days - reads);
}

/** Monthly cost per 1,000 users, each line scaled from the run's per-user-day rate. */
export function costPer1000Users(u: Usage, userDays: number, people: number): CostLine[] {
  const perUserMonth = (n: number) => (n / userDays) * DAYS_PER_MONTH * 1000;
  const line = (driver: string, amount: number, pricePerMillion: number, unit: string): CostLine => ({
    driver,
    usd: (perUserMonth(amount) * pricePerMillion) / 1e6,
    perUserDay: amount / userDays,
    unit,
  });
  const gbSeconds = (u.doWallMs / 1000) * PRICES.doMemoryGb;
  // Storage is a level, not a flow: the bytes per user at the end, held for a month.
  const gbPer1000 = (bytes: number) => ((bytes / Math.max(1, people)) * 1000) / 1e9;
  const d1GbPer1000 = gbPer1000(Math.max(0, u.d1Bytes - u.outboxBytes));
  const doGbPer1000 = gbPer1000(Object.values(u.doBytesByObject).reduce((a, b) => a + b, 0));
  return [
    line('Worker requests', u.workerRequests, PRICES.workerRequestsPerMillion, 'requests'),
    line('Worker CPU (wall time, upper bound)', u.workerWallMs, PRICES.workerCpuPerMillionMs, 'ms'),
    line('Durable Object requests', u.doRequests, PRICES.doRequestsPerMillion, 'requests'),
    { ...line('Durable Object duration', gbSeconds, PRICES.doGbSecondsPerMillion, 'GB-s') },
    line('Durable Object rows read', u.doRowsRead, PRICES.doRowsReadPerMillion, 'rows'),
    line('Durable Object rows written', u.doRowsWritten, PRICES.doRowsWrittenPerMillion, 'rows'),
    { driver: 'Durable Object storage', usd: doGbPer1000 * PRICES.doStoragePerGbMonth, perUserDay: 0, unit: 'GB-month' },
    line('D1 rows read', u.d1RowsRead, PRICES.d1RowsReadPerMillion, 'rows'),
    line(
      'D1 rows read by the timer scan (modelled)',
      (u.canaryRows * LOST_TIMER_SCANS_PER_DAY * userDays) / Math.max(1, people),
      PRICES.d1RowsReadPerMillion,
      'rows',
    ),
    line(
      'D1 rows read by the missed-event scan, at its production cadence (modelled)',
      scanReadsToAdd(u.missedEventScans, u.missedEventScanReads, LOST_EVENT_SCANS_PER_DAY, userDays / Math.max(1, people)),
      PRICES.d1RowsReadPerMillion,
      'rows',
    ),
    line(
      'D1 rows read by the missing-release-timer scan, at its production cadence (modelled)',
      scanReadsToAdd(u.missingTimerScans, u.missingTimerScanReads, LOST_TIMER_SCANS_PER_DAY, userDays / Math.max(1, people)),
      PRICES.d1RowsReadPerMillion,
      'rows',
    ),
    // The local outbox (the channels' local default) stores each email it "sends": on Cloudflare a provider sends it.
    line('D1 rows written (local outbox excluded)', u.d1RowsWritten - (u.d1WritesByTable.outbox_messages ?? 0), PRICES.d1RowsWrittenPerMillion, 'rows'),
    { driver: 'D1 storage (local outbox excluded)', usd: d1GbPer1000 * PRICES.d1StoragePerGbMonth, perUserDay: 0, unit: 'GB-month' },
    line('Queue operations', u.queueOps, PRICES.queueOpsPerMillion, 'operations'),
    line('R2 class A', u.r2ClassA, PRICES.r2ClassAPerMillion, 'operations'),
    line('R2 class B', u.r2ClassB, PRICES.r2ClassBPerMillion, 'operations'),
  ];
}

/** The days an account lives for the storage line that extrapolates this run's growth (storageAtAge). */
export const STORAGE_AGE_DAYS = 365;

/**
 * What storage costs a month per 1,000 users once their accounts are `ageDays` old: the level at the run's end grown
 * on at the rate of its second half (linear: storage is kept, and this population's rows grow with its days). A run's
 * own figure is the level at its end — 100 days for the full size — which understates what older accounts hold.
 * Null when the run did not last two days.
 */
export function storageAtAge(u: Usage, days: number, people: number, ageDays: number): { d1Usd: number; doUsd: number; d1KbPerUserDay: number } | null {
  const half = u.storedAtHalf;
  if (!half || days <= half.day) return null;
  const perUser = (bytes: number) => bytes / Math.max(1, people);
  const d1End = Math.max(0, u.d1Bytes - u.outboxBytes);
  const doEnd = Object.values(u.doBytesByObject).reduce((a, b) => a + b, 0);
  const grown = (end: number, mid: number) => perUser(end) + (Math.max(0, perUser(end - mid)) / (days - half.day)) * Math.max(0, ageDays - days);
  const gbPer1000 = (bytesPerUser: number) => (bytesPerUser * 1000) / 1e9;
  return {
    d1Usd: gbPer1000(grown(d1End, half.d1Bytes)) * PRICES.d1StoragePerGbMonth,
    doUsd: gbPer1000(grown(doEnd, half.doBytes)) * PRICES.doStoragePerGbMonth,
    d1KbPerUserDay: perUser(d1End - half.d1Bytes) / (days - half.day) / 1000,
  };
}

export function formatCosts(u: Usage, userDays: number, people: number): string {
  const lines = costPer1000Users(u, userDays, people);
  const total = lines.reduce((s, l) => s + l.usd, 0);
  const days = userDays / Math.max(1, people);
  const aged = storageAtAge(u, days, people, STORAGE_AGE_DAYS);
  const storageNow = lines.filter((l) => /storage/.test(l.driver)).reduce((s, l) => s + l.usd, 0);
  const agedLine = aged
    ? [
        `  at ${STORAGE_AGE_DAYS} days of account age (storage grown on at this run's second-half rate, D1 ${aged.d1KbPerUserDay.toFixed(2)} KB a user-day): ` +
          `D1 storage $${aged.d1Usd.toFixed(4)}, objects' storage $${aged.doUsd.toFixed(4)} — total $${(total - storageNow + aged.d1Usd + aged.doUsd).toFixed(4)}`,
      ]
    : [];
  const top = [...lines].sort((a, b) => b.usd - a.usd).slice(0, 3);
  const cron = ((u.cronRuns ? 43_200 : 0) * PRICES.workerRequestsPerMillion) / 1e6;
  const rows = lines.map((l) => `  ${l.driver.padEnd(38)} ${l.perUserDay.toFixed(2).padStart(10)} ${l.unit}/user-day  $${l.usd.toFixed(4)}`);
  return [
    `Cost at Cloudflare Workers Paid prices (${PRICES.asOf}; allowances ignored, e-mail/SMS/AI apart), per 1,000 users per month:`,
    ...rows,
    `  total $${total.toFixed(4)} per 1,000 users per month (goal: at most $0.25)${total > 0.25 ? ' — OVER THE GOAL' : ''}`,
    ...agedLine,
    `  largest drivers: ${top.map((l) => `${l.driver} $${l.usd.toFixed(4)}`).join('; ')}`,
    `  fixed, whatever the users: the every-minute cron, ${(43_200).toLocaleString('en')} Worker requests a month ($${cron.toFixed(4)})`,
  ].join('\n');
}
