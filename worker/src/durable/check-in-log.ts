import type { ClockCheckIn } from '../contracts/jobs';

/**
 * Check-ins are kept this long: beyond it, the PROJECTIONS queue (at least once, 10 retries with
 * backoff) has long since written them into D1, so a settle no longer needs them.
 */
const KEEP_CHECK_INS_MS = 7 * 24 * 3600_000;

/**
 * The canary object's log of its recent check-ins (its `check_ins` table, durable/clock-tables.ts). Each is
 * `sent` once the object queued it for D1 itself, and `applied` once D1 has it from a settle or the
 * Heartbeat's own batch: one neither sent nor applied is still owed to D1.
 */
export class CheckInLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Records a check-in once (by its event id). `written`: D1 already has it, so it is neither sent nor settled again. */
  record(entry: ClockCheckIn, written: boolean) {
    const flag = written ? 1 : 0;
    this.sql.exec(
      'INSERT OR IGNORE INTO check_ins (event_id, at, source, sent, applied) VALUES (?, ?, ?, ?, ?)',
      entry.event_id,
      entry.at,
      entry.source,
      flag,
      flag,
    );
  }

  /** How many check-ins are still owed to D1. */
  unsentCount(): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM check_ins WHERE sent = 0 AND applied = 0').one().n;
  }

  /** Check-ins this object has not queued itself and D1 has not had from a settle, oldest first. */
  unsent(limit = -1): ClockCheckIn[] {
    return this.sql.exec<ClockCheckIn>('SELECT event_id, at, source FROM check_ins WHERE sent = 0 AND applied = 0 ORDER BY at LIMIT ?', limit).toArray();
  }

  markSent(checkIns: readonly ClockCheckIn[]) {
    for (const c of checkIns) this.sql.exec('UPDATE check_ins SET sent = 1 WHERE event_id = ?', c.event_id);
  }

  markApplied(checkIns: readonly ClockCheckIn[]) {
    for (const c of checkIns) this.sql.exec('UPDATE check_ins SET applied = 1 WHERE event_id = ?', c.event_id);
  }

  /**
   * What a settle must write into D1: the latest check-in, and when `since` is given the first at or after it
   * (the one that disarms a message armed at `since` if it came inside the cancel window) — each only if D1
   * does not have it yet.
   */
  owedToSettle(since: number | null): ClockCheckIn[] {
    const pick = ({ event_id, at, source }: ClockCheckIn) => ({ event_id, at, source });
    const rows: ClockCheckIn[] = [];
    const latest = this.sql
      .exec<ClockCheckIn & { applied: number }>('SELECT event_id, at, source, applied FROM check_ins ORDER BY at DESC LIMIT 1')
      .toArray()[0];
    if (latest && !latest.applied) rows.push(pick(latest));
    if (since !== null) {
      const first = this.sql
        .exec<ClockCheckIn & { applied: number }>('SELECT event_id, at, source, applied FROM check_ins WHERE at >= ? ORDER BY at LIMIT 1', since)
        .toArray()[0];
      if (first && !first.applied && first.event_id !== latest?.event_id) rows.push(pick(first));
    }
    return rows;
  }

  /** The latest check-in held, 0 with none. */
  latestAt(): number {
    return this.sql.exec<{ at: number | null }>('SELECT max(at) AS at FROM check_ins').one().at ?? 0;
  }

  /** Forgets check-ins older than KEEP_CHECK_INS_MS before `now` that D1 has. */
  prune(now: number) {
    this.sql.exec('DELETE FROM check_ins WHERE (sent = 1 OR applied = 1) AND at < ?', now - KEEP_CHECK_INS_MS);
  }
}
