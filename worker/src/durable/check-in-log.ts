import type { ClockCheckIn } from '../contracts/jobs';

/**
 * Of the check-ins D1 has or was sent, the latest this many are kept, however old: they are also the feed's record
 * of the canary's token, ping and link check-ins, which D1 no longer stores one row each (docs/decisions/check-in-history.md)
 * — a person checking in daily sees the last hundred days, a script pinging every minute the last hundred minutes, as
 * a ping log of a monitoring service keeps the last pings. About 70 bytes each, in the one row every check-in
 * rewrites anyway (a row written is billed the same whatever its size).
 */
export const KEEP_CHECK_INS = 100;

/** Where a check-in stands with D1: owed (neither queued by the object nor written), sent (queued), applied (written). */
const OWED = 0;
const SENT = 1;
const APPLIED = 2;
type Standing = typeof OWED | typeof SENT | typeof APPLIED;

/** One check-in as the log stores it: [event_id, at, source, standing] — a compact tuple, the whole log is one column. */
type Entry = [string, number, ClockCheckIn['source'], Standing];

const checkInOf = ([event_id, at, source]: Entry): ClockCheckIn => ({ event_id, at, source });

/**
 * The canary object's log of its recent check-ins, held in one column of its clock's row (`canary_clock.check_ins`,
 * durable/clock-tables.ts) as JSON, oldest first. A check-in is then one row written — the clock's, which it
 * writes anyway for `last_check_in` — where a table of its own cost a row for the check-in, one for its sent
 * mark and one for its deletion a week later (Cloudflare bills an object's rows written: docs/performance.md).
 * The log is read from storage on each use, and every change is computed and written with no await in
 * between, so two calls interleaving at an await cannot lose each other's entries.
 *
 * Each check-in is `sent` once the object queued it for D1 itself, and `applied` once D1 has it from a settle
 * or the Heartbeat's own batch: one neither sent nor applied is still owed to D1 and is always kept.
 */
export class CheckInLog {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * The log with a check-in added once (by its event id) and the old ones let go, as the JSON the caller writes
   * in its own update of the clock's row. `written`: D1 already has it, so it is neither sent nor settled again.
   */
  withRecorded(entry: ClockCheckIn, written: boolean): string {
    const entries = this.read();
    if (!entries.some((e) => e[0] === entry.event_id)) {
      entries.push([entry.event_id, entry.at, entry.source, written ? APPLIED : OWED]);
      entries.sort((a, b) => a[1] - b[1]);
    }
    return JSON.stringify(kept(entries));
  }

  /** How many check-ins are still owed to D1. */
  unsentCount(): number {
    return this.read().filter((e) => e[3] === OWED).length;
  }

  /** Check-ins this object has not queued itself and D1 has not had from a settle, oldest first. */
  unsent(limit = Number.POSITIVE_INFINITY): ClockCheckIn[] {
    return this.read()
      .filter((e) => e[3] === OWED)
      .slice(0, limit)
      .map(checkInOf);
  }

  markSent(checkIns: readonly ClockCheckIn[]) {
    this.mark(checkIns, SENT);
  }

  markApplied(checkIns: readonly ClockCheckIn[]) {
    this.mark(checkIns, APPLIED);
  }

  /**
   * What a settle must write into D1: the latest check-in, and when `since` is given the first at or after it
   * (the one that disarms a message armed at `since` if it came inside the cancel window) — each only if D1
   * does not have it yet.
   */
  owedToSettle(since: number | null): ClockCheckIn[] {
    const entries = this.read();
    const latest = entries.at(-1);
    const rows: ClockCheckIn[] = [];
    if (latest && latest[3] !== APPLIED) rows.push(checkInOf(latest));
    if (since !== null) {
      const first = entries.find((e) => e[1] >= since);
      if (first && first[3] !== APPLIED && first !== latest) rows.push(checkInOf(first));
    }
    return rows;
  }

  /** The latest `limit` check-ins held, newest first. */
  recent(limit: number): ClockCheckIn[] {
    return this.read().slice(-limit).reverse().map(checkInOf);
  }

  /** The latest check-in held, 0 with none. */
  latestAt(): number {
    return this.read().at(-1)?.[1] ?? 0;
  }

  /** Raises each given check-in to `standing` (applied stays applied), in one write of the clock's row when anything changed. */
  private mark(checkIns: readonly ClockCheckIn[], standing: Standing) {
    if (!checkIns.length) return;
    const ids = new Set(checkIns.map((c) => c.event_id));
    const entries = this.read();
    let changed = false;
    for (const e of entries) {
      if (ids.has(e[0]) && e[3] < standing) {
        e[3] = standing;
        changed = true;
      }
    }
    if (changed) this.sql.exec('UPDATE canary_clock SET check_ins = ?', JSON.stringify(entries));
  }

  private read(): Entry[] {
    const row = this.sql.exec<{ check_ins: string }>('SELECT check_ins FROM canary_clock').toArray()[0];
    return row ? (JSON.parse(row.check_ins) as Entry[]) : [];
  }
}

/** What the log keeps: every check-in still owed to D1, and of the others the latest KEEP_CHECK_INS. */
function kept(entries: Entry[]): Entry[] {
  let done = 0;
  const keep = new Set<Entry>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e[3] === OWED) keep.add(e);
    else if (done < KEEP_CHECK_INS) {
      keep.add(e);
      done++;
    }
  }
  return entries.filter((e) => keep.has(e));
}

/** The log of an object from before it moved into the clock's row: its `check_ins` table's rows, as that column holds them. */
export function logFromRows(rows: { event_id: string; at: number; source: ClockCheckIn['source']; sent: number; applied: number }[]): string {
  const entries: Entry[] = rows.map((r): Entry => [r.event_id, r.at, r.source, r.applied ? APPLIED : r.sent ? SENT : OWED]).sort((a, b) => a[1] - b[1]);
  return JSON.stringify(entries);
}
