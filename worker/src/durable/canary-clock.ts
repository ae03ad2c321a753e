import { DurableObject } from 'cloudflare:workers';
import type { CheckInProjection } from '../contracts/jobs';
import { graceMs } from '../contracts/canary-health';
import { advanceCanary } from '../domains/canary/advance-canary';
import { applyCanaryCheckIns } from '../domains/canary/check-in-projection';
import { createServiceContext, type Bindings } from '../env';
import { withD1Delay } from '../lib/d1-delay';
import { log } from '../lib/logger';

/** A check-in as the object records it (its own time and where it came from). */
export type ClockCheckIn = Omit<CheckInProjection, 'type' | 'canary_id'>;

interface ClockState {
  canary_id: string;
  interval_seconds: number;
  last_check_in: number;
  token_version: number;
  /** When the canary's timer next needs to run the engine (its alarm may be set earlier, to resend). */
  timer_due_at: number | null;
  /** The latest check-in this object itself has written into D1 (the queue writes the rest). */
  applied_through: number;
  gone: number;
}

/** A projection that could not be queued is tried again this much later. */
const RESEND_AFTER_MS = 30_000;
/**
 * Check-ins are kept this long: beyond it, the PROJECTIONS queue (at-least-once, 10 retries with
 * backoff) has long since written them into D1, so `settle` no longer needs them.
 */
const KEEP_CHECK_INS_MS = 7 * 24 * 3600_000;

/**
 * One per canary (named by its id): the record of the canary's clock (docs/decisions/canary-engine.md).
 * It holds the canary's last check-in, interval, token version and timer in its own SQLite storage and
 * answers token check-ins itself, with no D1 round trip; each accepted check-in goes to D1 through the
 * PROJECTIONS queue. Its alarm is the canary's deadline timer: a wake first makes D1 agree with the
 * object (the latest check-in), then runs the engine (advanceCanary) and arms the next wake.
 *
 * Anyone who decides on D1's copy of a check-in — the release engine before a release, the dead-man
 * deletion, the reconciler — first calls `settle`, which writes what the object knows into D1.
 */
export class CanaryClock extends DurableObject<Bindings> {
  private sending: Promise<void> | null = null;
  private sendAgain = false;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, withD1Delay(env));
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS clock (
      one INTEGER PRIMARY KEY CHECK (one = 1), canary_id TEXT NOT NULL, interval_seconds INTEGER NOT NULL DEFAULT 0,
      last_check_in INTEGER NOT NULL DEFAULT 0, token_version INTEGER NOT NULL DEFAULT 0, timer_due_at INTEGER,
      applied_through INTEGER NOT NULL DEFAULT 0, gone INTEGER NOT NULL DEFAULT 0)`);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS check_ins (
      event_id TEXT PRIMARY KEY, at INTEGER NOT NULL, source TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0)`);
    ctx.storage.sql.exec('CREATE INDEX IF NOT EXISTS check_ins_at ON check_ins (at)');
  }

  /** Arms (or re-checks) the timer: runs the engine now and returns the next due time in ms, or null. */
  async sync(canaryId: string): Promise<number | null> {
    const state = await this.load(canaryId);
    if (!state) return null;
    return this.wake(state);
  }

  /**
   * A token check-in. `version` null: the caller already matched a legacy token against D1. Returns null
   * for a canary that is gone or a token version it no longer holds — the caller answers 404.
   */
  async checkIn(canaryId: string, version: number | null, entry: ClockCheckIn): Promise<{ interval_seconds: number } | null> {
    const state = await this.load(canaryId);
    if (!state || (version !== null && version !== state.token_version)) return null;
    this.record(state, entry, false);
    await this.armEarlierFor(state, entry.at);
    this.ctx.waitUntil(this.sendPending());
    return { interval_seconds: state.interval_seconds };
  }

  /** The signed-in Heartbeat already wrote this check-in into D1 in its own batch: only the clock moves. */
  async noteCheckIn(canaryId: string, entry: ClockCheckIn): Promise<void> {
    const state = await this.load(canaryId);
    if (!state) return;
    this.record(state, entry, true);
    this.ctx.storage.sql.exec('UPDATE clock SET applied_through = max(applied_through, ?)', entry.at);
    await this.armEarlierFor(state, entry.at);
  }

  /**
   * Writes what this object knows into D1 now, whatever the queue has done so far: the latest check-in
   * (everything it changes only moves forward) and, when `since` is given, the first check-in at or after
   * it — the one that disarms a message armed at `since` if it came inside the cancel window.
   * Returns how many check-ins were written (each write is idempotent).
   */
  async settle(since: number | null = null): Promise<number> {
    const state = this.state();
    if (!state || state.gone) return 0;
    const rows: ClockCheckIn[] = [];
    const latest = this.ctx.storage.sql.exec<ClockCheckIn>('SELECT event_id, at, source FROM check_ins ORDER BY at DESC LIMIT 1').toArray()[0];
    // One this object has written itself is in D1 with all it changed (only the `since` one may not be).
    if (latest && latest.at > state.applied_through) rows.push(latest);
    if (since !== null) {
      const first = this.ctx.storage.sql.exec<ClockCheckIn>('SELECT event_id, at, source FROM check_ins WHERE at >= ? ORDER BY at LIMIT 1', since).toArray()[0];
      if (first && first.event_id !== latest?.event_id) rows.push(first);
    }
    if (!rows.length) return 0;
    await applyCanaryCheckIns(
      { env: this.env },
      rows.map((entry) => ({ canary_id: state.canary_id, ...entry })),
    );
    this.ctx.storage.sql.exec('UPDATE clock SET applied_through = max(applied_through, ?)', Math.max(...rows.map((r) => r.at)));
    return rows.length;
  }

  /** The canary is deleted: no more wakes, and every token of it fails from now on. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    this.ctx.storage.sql.exec('DELETE FROM check_ins');
    this.ctx.storage.sql.exec('UPDATE clock SET gone = 1, timer_due_at = NULL');
    if (!this.state()) this.ctx.storage.sql.exec(`INSERT INTO clock (one, canary_id, gone) VALUES (1, '', 1)`);
  }

  override async alarm(): Promise<void> {
    // An object armed before the clock kept its own state knows only its canary's id.
    const state = this.state() ?? (await this.load((await this.ctx.storage.get<string>('canaryId')) ?? ''));
    if (!state || state.gone) return;
    await this.sendPending();
    if (state.timer_due_at !== null && state.timer_due_at > Date.now()) {
      await this.armAlarm(state.timer_due_at);
      return;
    }
    await this.wake(state);
  }

  /** Runs the engine for this canary: D1 first agrees with the object, then what is due is recorded. */
  private async wake(state: ClockState): Promise<number | null> {
    if (state.last_check_in > state.applied_through) await this.settle();
    const { nextDueAt } = await advanceCanary(createServiceContext(this.env), state.canary_id, 'alarm', { armsTimer: true });
    if (!nextDueAt) {
      await this.stop();
      return null;
    }
    const next = nextDueAt.getTime();
    this.ctx.storage.sql.exec('UPDATE clock SET timer_due_at = ?', next);
    this.ctx.storage.sql.exec('DELETE FROM check_ins WHERE sent = 1 AND at < ?', Date.now() - KEEP_CHECK_INS_MS);
    await this.armAlarm(next);
    return next;
  }

  private state(): ClockState | null {
    return this.ctx.storage.sql.exec<ClockState & Record<string, SqlStorageValue>>('SELECT * FROM clock').toArray()[0] ?? null;
  }

  /**
   * The clock's state; on first touch (an object from before the clock kept state, or a new canary) it
   * is read from D1 once. A canary D1 does not have is remembered as gone, so its tokens keep failing
   * without another query.
   */
  private async load(canaryId: string): Promise<ClockState | null> {
    const known = this.state();
    if (known) return known.gone || known.canary_id !== canaryId ? null : known;
    if (!canaryId) return null;
    const row = await this.env.DB.prepare('SELECT interval_seconds, last_check_in, token_version, active, timer_due_at FROM canaries WHERE id = ?')
      .bind(canaryId)
      .first<{ interval_seconds: number; last_check_in: number; token_version: number; active: number; timer_due_at: number | null }>();
    if (this.state()) return this.load(canaryId); // another call seeded it while this one read D1
    if (!row?.active) {
      await this.stop();
      return null;
    }
    this.ctx.storage.sql.exec(
      'INSERT INTO clock (one, canary_id, interval_seconds, last_check_in, token_version, timer_due_at, applied_through) VALUES (1, ?, ?, ?, ?, ?, ?)',
      canaryId,
      row.interval_seconds,
      row.last_check_in,
      row.token_version,
      row.timer_due_at,
      row.last_check_in,
    );
    return this.state();
  }

  private record(state: ClockState, entry: ClockCheckIn, sent: boolean) {
    this.ctx.storage.sql.exec(
      'INSERT OR IGNORE INTO check_ins (event_id, at, source, sent) VALUES (?, ?, ?, ?)',
      entry.event_id,
      entry.at,
      entry.source,
      sent ? 1 : 0,
    );
    this.ctx.storage.sql.exec('UPDATE clock SET last_check_in = max(last_check_in, ?)', entry.at);
    state.last_check_in = Math.max(state.last_check_in, entry.at);
  }

  /**
   * A check-in only moves deadlines later, so the armed wake merely comes early and re-arms — unless the
   * new cycle's first entry (its grace reminder) comes before it: then the timer moves to that entry.
   */
  private async armEarlierFor(state: ClockState, at: number) {
    const firstEntry = at + state.interval_seconds * 1000 - graceMs(state.interval_seconds);
    if (state.timer_due_at === null || firstEntry < state.timer_due_at) {
      state.timer_due_at = firstEntry;
      this.ctx.storage.sql.exec('UPDATE clock SET timer_due_at = ?', firstEntry);
      await this.armAlarm(firstEntry);
    }
  }

  private async armAlarm(at: number) {
    const armed = await this.ctx.storage.getAlarm();
    if (armed !== at) await this.ctx.storage.setAlarm(at);
  }

  /**
   * Queues every check-in not yet queued (send, then mark: a crash in between re-sends, never loses). A
   * failed send arms a resend in RESEND_AFTER_MS; an object evicted before sending sends at its next wake
   * (at most the grace reminder away), and whoever decides on D1 settles first.
   */
  private sendPending(): Promise<void> {
    if (this.sending) {
      this.sendAgain = true;
      return this.sending;
    }
    this.sending = (async () => {
      try {
        do {
          this.sendAgain = false;
          const state = this.state();
          if (!state || state.gone) return;
          const rows = this.ctx.storage.sql.exec<ClockCheckIn>('SELECT event_id, at, source FROM check_ins WHERE sent = 0 ORDER BY at LIMIT 100').toArray();
          if (!rows.length) return;
          await this.env.PROJECTIONS.sendBatch(
            rows.map((r) => ({ body: { type: 'canary_check_in', canary_id: state.canary_id, ...r } satisfies CheckInProjection })),
          );
          for (const r of rows) this.ctx.storage.sql.exec('UPDATE check_ins SET sent = 1 WHERE event_id = ?', r.event_id);
        } while (this.sendAgain);
      } catch (err) {
        log.error('could not queue a check-in for D1; retrying', { error: String(err) });
        const armed = await this.ctx.storage.getAlarm();
        const resendAt = Date.now() + RESEND_AFTER_MS;
        if (armed === null || resendAt < armed) await this.ctx.storage.setAlarm(resendAt);
      } finally {
        this.sending = null;
      }
    })();
    return this.sending;
  }
}
