import { DurableObject } from 'cloudflare:workers';
import type { TCanarySchedule } from '../contracts/canary-schedule';
import type { CanaryNoticeJob, CheckInProjection, ClockCheckIn, TransitionRow, WakeActivity, WakeProjection } from '../contracts/jobs';
import { applyCanaryCheckIns } from '../domains/canary/check-in-projection';
import { createServiceContext } from '../wiring/service-context';
import {
  type CanaryFacts,
  countsAfterWarning,
  cycleDeadlineOf,
  graceOfFacts,
  missesToEmit,
  nextAttention,
  pauseNoticesToSend,
  planWake,
  type RecordedBy,
  TRANSITION_COLUMNS,
  toMissedEvent,
  warningsToSend,
} from '../domains/canary/plan-wake';
import { applyProjections } from '../domains/canary/projection-batch';
import { applyWakeProjections, WAKE_ROWS_PER_MESSAGE } from '../domains/canary/wake-projection';
import type { Bindings } from '../env';
import { withD1Delay } from '../lib/d1-delay';
import { log } from '../lib/logger';
import { sendInBatches } from '../lib/queue-batches';
import { CheckInLog } from './check-in-log';
import { ensureClockTables } from './clock-tables';

export type { ClockCheckIn };

/** A change of a canary's cadence by its owner (PATCH /api/canary/{id}, pause, resume). */
export interface CadenceChange {
  interval_seconds: number;
  schedule: TCanarySchedule | null;
  paused_until: number | null;
}

/**
 * A timer event as the object holds it: D1's row, when a warning waiting in D1 is looked at again, and the feed
 * line its wake wrote (JSON) until it is projected into D1.
 */
type ObjectTransition = TransitionRow & { recheck_at?: number | null; activity?: string | null };

interface ClockState extends CanaryFacts {
  token_version: number;
  /**
   * The timer (when the canary next needs the engine), kept here only while the alarm is set earlier than it — for
   * a resend after a failed send (sendPending). Null: the alarm is the timer (timerOf). Keeping it always was a row
   * written on every wake that moved it (docs/performance.md "The timer is the alarm").
   */
  timer_due_at: number | null;
  gone: number;
}

/**
 * A warning whose notice waits in D1 is looked at again this long after the notice's own next try: time for
 * that try's job to run and its delivery to come back (CanaryClock.warningDelivered), which ends the wait.
 */
const WAITING_RECHECK_AFTER_MS = 5 * 60_000;
/** A projection that could not be queued is tried again this much later. */
const RESEND_AFTER_MS = 30_000;
/** Check-ins per wake message (about 100 bytes each: a message stays well under the queue's 128 KB). */
const CHECK_INS_PER_MESSAGE = 100;
/**
 * An object that holds this many check-ins it has not queued itself queues them without waiting for its
 * wake: a canary checked in very often between wakes (a script pinging every minute) keeps few unsent.
 */
const QUEUE_OWN_AFTER = 100;
/**
 * One per canary (named by its id): the record of the canary's clock (docs/decisions/canary-engine.md).
 * In its own SQLite storage it holds the canary's interval, token version and last check-in, its recent
 * check-ins, and the timer events of the current cycle. It answers token check-ins itself and runs the
 * engine on its alarm (plan-wake.ts) without waiting for D1: what it records goes to D1 through the
 * PROJECTIONS queue, and the `missed_checkins` events to JOBS.
 *
 * Anyone who decides on D1's copy of a check-in — the release engine before a release, arming on a
 * missed event, the dead-man deletion — first calls `settle`, which writes what the object knows into D1.
 */
export class CanaryClock extends DurableObject<Bindings> {
  private sending: Promise<void> | null = null;
  private sendAgain = false;

  private readonly checkIns: CheckInLog;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, withD1Delay(env));
    ensureClockTables(ctx.storage.sql);
    this.checkIns = new CheckInLog(ctx.storage.sql);
  }

  /**
   * Arms (or re-checks) the timer: runs the engine now (as `by`), arms the alarm for the next step and
   * returns it in ms, or null for a canary that is gone.
   */
  async sync(canaryId: string, by: RecordedBy = 'alarm'): Promise<number | null> {
    const state = await this.load(canaryId);
    if (!state) return null;
    return this.runEngine(state, Date.now(), by, { arm: true, project: 'now' });
  }

  /**
   * The engine at a given instant, for the reconciler and for tests with a controlled clock: records what
   * is due at `now` and writes it into D1 before returning (project 'now'). `arm`: also arm the alarm.
   */
  async advanceAt(canaryId: string, now: number, by: RecordedBy, opts: { arm?: boolean } = {}): Promise<number | null> {
    const state = await this.load(canaryId);
    if (!state) return null;
    const next = await this.runEngine(state, now, by, { arm: opts.arm ?? false, project: 'now' });
    // The reconciler runs an object whose timer D1 holds as overdue. A check-in's lost projection (the
    // Worker gone before its send) leaves D1 exactly so, the check-in missing too: written now.
    if (by === 'reconciler') await this.writeUnsentCheckIns(state);
    return next;
  }

  /** Writes into D1 every check-in held that was neither queued by this object nor settled (idempotent). */
  private async writeUnsentCheckIns(state: ClockState) {
    const rows = this.checkIns.unsent(CHECK_INS_PER_MESSAGE);
    if (!rows.length) return;
    await this.writeCheckIns(state, rows);
  }

  /** Writes check-ins this object holds into D1 itself (idempotent there), then marks them applied. */
  private async writeCheckIns(state: ClockState, rows: ClockCheckIn[]) {
    await applyCanaryCheckIns(
      createServiceContext(this.env),
      rows.map((r) => ({ canary_id: state.id, ...r })),
    );
    this.checkIns.markApplied(rows);
  }

  /**
   * A token check-in. `version` null: the caller already matched a legacy token against D1. Returns null
   * for a canary that is gone or a token version it no longer holds — the caller answers 404.
   *
   * The caller queues the check-in's projection for D1 with others (check-in-sender.ts), carrying the
   * object's next wake (`next_wake`, the timer the check-in leaves armed). The object keeps the check-in
   * unsent all the same: its next wake's projection, its own send after QUEUE_OWN_AFTER of them, a settle or
   * the reconciler's repair (a lost projection leaves D1's timer behind: docs/decisions/canary-engine.md
   * "A check-in moves the timer") writes it again, idempotent in D1.
   */
  async checkIn(
    canaryId: string,
    version: number | null,
    entry: ClockCheckIn,
  ): Promise<{ interval_seconds: number; deadline: number; next_wake: number } | null> {
    const state = await this.load(canaryId);
    if (!state || (version !== null && version !== state.token_version)) return null;
    const { next: nextWake } = await this.recordAndRearm(state, entry, { written: false });
    if (this.checkIns.unsentCount() >= QUEUE_OWN_AFTER) this.ctx.waitUntil(this.sendPending());
    return { interval_seconds: state.interval_seconds, deadline: cycleDeadlineOf(state), next_wake: nextWake };
  }

  /** A caller could not queue check-ins of this canary: the object queues every one it holds unsent now. */
  async queueUnsent(): Promise<void> {
    await this.sendPending();
  }

  /**
   * The signed-in Heartbeat already wrote this check-in into D1 in its own batch: only the clock moves. Returns
   * the timer when it moved, for the Heartbeat to write into D1 after its batch (null: it stayed).
   */
  async noteCheckIn(canaryId: string, entry: ClockCheckIn): Promise<number | null> {
    const state = await this.load(canaryId);
    if (!state) return null;
    const { next, moved } = await this.recordAndRearm(state, entry, { written: true });
    return moved ? next : null;
  }

  /** The owner renamed the canary (D1 has the new name): its notices use it from now on. */
  async rename(canaryId: string, name: string): Promise<void> {
    if (await this.load(canaryId)) this.ctx.storage.sql.exec('UPDATE canary_clock SET name = ?', name);
  }

  /**
   * The owner changes the canary's cadence — its interval or calendar schedule, or a vacation pause — at
   * `now`. Refused (`'missed'`) while the canary is missed: the misses already recorded belong to the
   * current cycle's deadline, and moving it would drop them or count them twice; a check-in first ends
   * that cycle. D1's row is written first (the object reads it again only when it has no record), then
   * the object's own, then the engine runs at `now` (written into D1, timer armed) and the new deadline is
   * returned.
   */
  async setCadence(canaryId: string, change: CadenceChange, now: number): Promise<{ deadline: number } | 'missed' | null> {
    const state = await this.load(canaryId);
    if (!state) return null;
    // Missed or not is a question of the latest check-in, which D1 may have and this object not (catchUpWithD1).
    if (now >= cycleDeadlineOf(state)) await this.catchUpWithD1(state);
    if (now >= cycleDeadlineOf(state)) return 'missed';
    await this.env.DB.prepare('UPDATE canaries SET interval_seconds = ?2, schedule = ?3, paused_until = ?4 WHERE id = ?1')
      .bind(canaryId, change.interval_seconds, change.schedule ? JSON.stringify(change.schedule) : null, change.paused_until)
      .run();
    this.ctx.storage.sql.exec('UPDATE canary_clock SET interval_seconds = ?', change.interval_seconds);
    this.writeCadence(change);
    const next = this.state()!;
    await this.runEngine(next, now, 'alarm', { arm: true, project: 'now' });
    return { deadline: cycleDeadlineOf(next) };
  }

  /**
   * Writes what this object knows into D1 now, whatever the queue has done so far: its timer events not yet
   * written (`events`: the whole current cycle's and the timer too, for readers of the cycle's events), its
   * latest check-in (everything a check-in changes only moves forward) and, when `since` is given, its
   * first check-in at or after it — the one that disarms a message armed at `since` if it came inside the cancel
   * window. Each write is idempotent. Returns how many check-ins it wrote.
   */
  async settle(since: number | null = null, opts: { events?: boolean } = {}): Promise<number> {
    const state = await this.load(this.state()?.id ?? '');
    if (!state) return 0;
    await this.projectTransitions(state, 'now', opts.events ? ((await this.timerOf(state)) ?? undefined) : undefined, { wholeCycle: opts.events });
    const rows = this.checkIns.owedToSettle(since);
    // A check-in this object has written into D1 itself is there: settling again costs no round trip.
    if (!rows.length) return 0;
    await this.writeCheckIns(state, rows);
    return rows.length;
  }

  /**
   * A warning of this canary (its timer event `transitionId`) reached the owner at `deliveredAt` on
   * `channel` (domains/owner-notices/canary-notices.ts, after a channel accepted it). Recorded once; the misses
   * waiting for a warning count one grace period later; the engine then runs at `now` (written into D1
   * now, timer armed). Returns the next wake, or null for a canary that is gone.
   */
  async warningDelivered(canaryId: string, transitionId: string, deliveredAt: number, channel: string, now: number = Date.now()): Promise<number | null> {
    const state = await this.load(canaryId);
    if (!state) return null;
    const sql = this.ctx.storage.sql;
    // Which cycle is current is known only once a check-in D1 has and this object missed is taken in (catchUpWithD1).
    await this.catchUpWithD1(state);
    // Only a warning of the current cycle matters: a check-in ended the others (the owner's notice log keeps where each went).
    const [row] = this.transitionsWhere(state, 'id = ? AND cycle_deadline = ?', transitionId, cycleDeadlineOf(state));
    if (row && row.delivered_at == null) {
      sql.exec(
        `UPDATE transitions SET delivery_status = 'delivered', delivered_at = ?, delivery_channel = ?, projected = 0 WHERE id = ?`,
        deliveredAt,
        channel,
        transitionId,
      );
      for (const m of countsAfterWarning(state, this.cycleRows(state, row.cycle_deadline), deliveredAt)) {
        sql.exec('UPDATE transitions SET counts_from = ?, projected = 0 WHERE id = ? AND counts_from IS NULL', m.counts_from, m.id);
      }
    }
    return this.runEngine(state, now, 'alarm', { arm: true, project: 'now' });
  }

  /** The latest check-in this object holds (null: it has no record yet), for readers who must see a check-in at once. */
  async lastCheckIn(): Promise<number | null> {
    const state = this.state();
    return state && !state.gone && state.user_id ? state.last_check_in : null;
  }

  /**
   * The canary's name and its latest `limit` check-ins, newest first (null for a canary that is gone): the record of
   * its token, ping and link check-ins for the activity feed and the export (domains/canary/check-in-lines.ts).
   */
  async recentCheckIns(limit: number): Promise<{ name: string; check_ins: ClockCheckIn[] } | null> {
    const state = this.state();
    if (!state || state.gone || !state.user_id) return null;
    return { name: state.name, check_ins: this.checkIns.recent(limit) };
  }

  private noticeOf(state: ClockState, t: TransitionRow): CanaryNoticeJob {
    return {
      type: 'canary_notice',
      transition_id: t.id,
      kind: t.kind,
      canary_id: state.id,
      user_id: state.user_id,
      canary_name: state.name,
      interval_seconds: state.interval_seconds,
      grace_ms: graceOfFacts(state),
      ...(state.paused_until == null ? {} : { paused_until: state.paused_until }),
      cycle_deadline: t.cycle_deadline,
      recorded_at: t.fired_at,
    };
  }

  /** The canary is deleted: no more wakes, and every token of it fails from now on. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    const sql = this.ctx.storage.sql;
    for (const table of ['transitions', 'pending_activity']) sql.exec(`DELETE FROM ${table}`);
    if (this.state()) sql.exec(`UPDATE canary_clock SET gone = 1, timer_due_at = NULL, check_ins = '[]'`);
    else sql.exec(`INSERT INTO canary_clock (one, id, gone) VALUES (1, '', 1)`);
  }

  override async alarm(): Promise<void> {
    // An object armed before the clock kept its own state knows only its canary's id.
    const state = await this.load(this.state()?.id ?? (await this.ctx.storage.get<string>('canaryId')) ?? '');
    if (!state || state.gone) return;
    // An alarm before the timer (a resend's) runs the engine all the same: nothing is due before the timer, so it
    // records nothing, sends what is owed and arms the timer again (nextAttention is the timer, worked out anew).
    await this.runEngine(state, Date.now(), 'alarm', { arm: true, project: 'queue' });
  }

  /**
   * One run of the engine on this object's own state: records what is due (plan-wake.ts), sends the misses
   * that count to JOBS (send, then mark: a crash in between re-sends; consumers deduplicate on the event
   * id), projects what it recorded into D1 — through the PROJECTIONS queue on the alarm's path (a wake that
   * recorded nothing is written directly, falling back to the queue: writeQuietWake), directly for the
   * reconciler and tests — and keeps the next due instant. A wake that recorded something never waits for D1
   * (it only asks it whether a warning due again is still waiting to be sent: warningsNotWaiting).
   */
  private async runEngine(state: ClockState, now: number, by: RecordedBy, opts: { arm: boolean; project: 'queue' | 'now' }): Promise<number> {
    const sql = this.ctx.storage.sql;
    let cycle = cycleDeadlineOf(state);
    let { rows } = planWake(state, this.cycleRows(state, cycle), now, by);
    // Before recording a warning or a miss, or sending one of its cycle again, a check-in D1 has and this object
    // never heard of is taken in: the plan is then made again for the cycle that check-in began.
    if ((rows.length || this.cycleRows(state, cycle).length) && (await this.catchUpWithD1(state))) {
      cycle = cycleDeadlineOf(state);
      ({ rows } = planWake(state, this.cycleRows(state, cycle), now, by));
    }
    // The feed's lines for these events are made from them in D1 when it is read (domains/canary/event-lines.ts).
    for (const r of rows) this.insertTransition(r, false);
    let unsent: unknown = null;
    try {
      const rowsNow = this.cycleRows(state, cycle);
      const due = missesToEmit(state, rowsNow, now);
      const { warnings, waiting } = await this.warningsNotWaiting(warningsToSend(state, rowsNow, now));
      const pauseNotices = pauseNoticesToSend(state, rowsNow, now);
      // The owner hears of each warning, and of the first miss once it counts, on their channels: the same
      // send as the events (one queue operation), and the warnings' delivery comes back to warningDelivered.
      const notices = [...warnings, ...due.filter((t) => t.misses === 1), ...pauseNotices].map((t) => this.noticeOf(state, t));
      await sendInBatches(this.env.JOBS, [...due.map(toMissedEvent), ...notices]);
      for (const t of [...warnings, ...pauseNotices]) sql.exec('UPDATE transitions SET emitted_at = ?, projected = 0 WHERE id = ?', now, t.id);
      // Not sent again, and looked at again once its notice's own next try is past (the backoff goes on from
      // now); D1 keeps the last send.
      for (const { row, dueAt } of waiting)
        sql.exec('UPDATE transitions SET emitted_at = ?, recheck_at = ? WHERE id = ?', now, dueAt + WAITING_RECHECK_AFTER_MS, row.id);
      for (const t of due) {
        sql.exec('UPDATE transitions SET emitted_at = ?, projected = 0 WHERE id = ? AND emitted_at IS NULL', now, t.id);
        log.info('missed_checkins emitted', { canary_id: state.id, misses: t.misses, late_ms: now - t.due_at });
      }
    } catch (err) {
      // What was recorded still reaches D1 below (the reconciler finds unsent misses there); the
      // error then fails this run, so the alarm is retried.
      unsent = err;
    }
    const next = nextAttention(state, this.cycleRows(state, cycle), now);
    // The alarm is armed for the timer below: no timer is held any more (written only when one was: a billed row).
    if (opts.arm && state.timer_due_at !== null) {
      state.timer_due_at = null;
      sql.exec('UPDATE canary_clock SET timer_due_at = NULL');
    }
    // Written now (the reconciler, a sync): the whole current cycle again, not only what is unsent — a
    // wake projection the queue accepted and then dropped after its retries is marked projected here but
    // missing from D1, and this is how it gets there (idempotent).
    await this.projectTransitions(state, opts.project, opts.arm ? next : undefined, { wholeCycle: opts.project === 'now' });
    if (unsent) throw unsent;
    // Earlier cycles are history in D1 once written there.
    sql.exec('DELETE FROM transitions WHERE cycle_deadline < ? AND projected = 1', cycle);
    if (opts.arm) await this.armAlarm(next);
    return next;
  }

  /**
   * A Heartbeat check-in is written into D1 first and then told to each canary's object (`noteCheckIn`); a call
   * that fails there (the object reset, overloaded, unreachable) leaves D1 with a check-in this object — the record
   * of the clock — never heard of, and it would warn and count misses for a cycle the owner already ended. Found by
   * the simulation's crash fault (docs/decisions/simulation.md). So before a wake records or sends anything, the
   * object reads D1's last check-in of its canary and takes in a later one. D1 is never ahead otherwise (token check-ins
   * reach the object first), so this changes nothing else; a D1 that cannot answer leaves the object as it was.
   */
  private async catchUpWithD1(state: ClockState): Promise<boolean> {
    let row: { last_check_in: number } | null;
    try {
      row = await this.env.DB.prepare('SELECT last_check_in FROM canaries WHERE id = ?').bind(state.id).first<{ last_check_in: number }>();
    } catch (err) {
      log.warn('could not read the canary’s last check-in from D1 before a wake; going on with the object’s own', {
        canary_id: state.id,
        error: String(err),
      });
      return false;
    }
    if (!row || row.last_check_in <= state.last_check_in) return false;
    log.warn('a check-in D1 has and the canary’s object did not: taken in before the wake records anything', {
      canary_id: state.id,
      behind_ms: row.last_check_in - state.last_check_in,
    });
    state.last_check_in = row.last_check_in;
    this.ctx.storage.sql.exec('UPDATE canary_clock SET last_check_in = max(last_check_in, ?)', row.last_check_in);
    return true;
  }

  /**
   * Of the warnings due to be sent (again), those whose owner notice D1 holds as pending are waiting — for
   * the end of the owner's quiet hours, or for the next try after no channel took it — and are not sent
   * again: the notice's own consumer sends it then (the reconciler re-queues a pending notice whose job was
   * lost: reconcile-releases.ts), and its delivery comes back here. A resend is for a job that never became
   * a notice, or a delivery this object never heard of (the consumer reports it again). Each resend was a
   * queue message, an emission mark and its projection, every 1, 2, 4 … minutes through a night's quiet
   * hours. A waiting one is looked at again only once its notice's next try (`dueAt`) is past: each look
   * was a wake of its own. If D1 cannot answer, every one is sent, as before.
   */
  private async warningsNotWaiting(due: TransitionRow[]): Promise<{ warnings: TransitionRow[]; waiting: { row: TransitionRow; dueAt: number }[] }> {
    const resends = due.filter((t) => t.emitted_at != null);
    if (!resends.length) return { warnings: due, waiting: [] };
    let pending: Map<string, number>;
    try {
      const { results } = await this.env.DB.prepare(`SELECT id, due_at FROM owner_notices WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'pending'`)
        .bind(JSON.stringify(resends.map((t) => t.id)))
        .all<{ id: string; due_at: number }>();
      pending = new Map(results.map((r) => [r.id, r.due_at]));
    } catch (err) {
      log.warn('could not read whether warnings wait; sending them again', { error: String(err) });
      return { warnings: due, waiting: [] };
    }
    return {
      warnings: due.filter((t) => !pending.has(t.id)),
      waiting: due.flatMap((row) => (pending.has(row.id) ? [{ row, dueAt: pending.get(row.id)! }] : [])),
    };
  }

  /**
   * Sends (or, `now`, writes) every timer event and activity row not yet projected into D1, with the
   * timer's next instant — and, sent, the check-ins the object has not queued itself — then marks them
   * projected. Send, then mark: a crash in between sends again, and the write is idempotent.
   */
  private async projectTransitions(state: ClockState, mode: 'queue' | 'now', timerDueAt?: number, opts: { wholeCycle?: boolean } = {}) {
    const sql = this.ctx.storage.sql;
    // `wholeCycle` (settle): the current cycle's rows too, even those already sent — the queue may not have
    // delivered them yet, and writing them again changes nothing.
    const transitions = this.transitionsWhere(
      state,
      'projected = 0 OR cycle_deadline = ? ORDER BY fired_at, misses',
      opts.wholeCycle ? cycleDeadlineOf(state) : -1,
    );
    // Feed lines an earlier release's wakes wrote and did not project yet: in their event's row (`activity`) or in
    // pending_activity. A wake writes none now (domains/canary/event-lines.ts makes them from the events in D1).
    const held = sql
      .exec<{ id: string; row: string }>('SELECT id, row FROM pending_activity')
      .toArray()
      .map((a) => JSON.parse(a.row) as WakeActivity);
    const activities = [...transitions.flatMap((t) => (t.activity ? [JSON.parse(t.activity) as WakeActivity] : [])), ...held];
    // A wake's messages carry the check-ins not yet queued (written directly, `settle` handles check-ins).
    const checkIns = mode === 'queue' ? this.checkIns.unsent() : [];
    if (!transitions.length && !activities.length && !checkIns.length && timerDueAt === undefined) return;
    const messages: WakeProjection[] = [];
    const count = Math.max(Math.ceil(transitions.length / WAKE_ROWS_PER_MESSAGE), Math.ceil(checkIns.length / CHECK_INS_PER_MESSAGE), 1);
    for (let m = 0; m < count; m++) {
      messages.push({
        type: 'canary_wake',
        canary_id: state.id,
        transitions: transitions.slice(m * WAKE_ROWS_PER_MESSAGE, (m + 1) * WAKE_ROWS_PER_MESSAGE).map(({ recheck_at: _, activity: __, ...t }) => t),
        activities: m === 0 ? activities : [],
        ...(checkIns.length ? { check_ins: checkIns.slice(m * CHECK_INS_PER_MESSAGE, (m + 1) * CHECK_INS_PER_MESSAGE) } : {}),
        ...(timerDueAt === undefined ? {} : { timer_due_at: timerDueAt }),
      });
    }
    if (mode === 'now') await applyWakeProjections(this.env, messages);
    else if (!transitions.length && !activities.length) await this.writeQuietWake(messages);
    else await sendInBatches(this.env.PROJECTIONS, messages);
    // Only what was read above: a row recorded meanwhile (or an emission mark) stays for the next projection.
    // A row already marked (a settle writes the whole cycle again) is not written again: a billed row. Its feed
    // line goes with the same write: projected once, it is not sent again.
    for (const t of transitions) {
      sql.exec(
        'UPDATE transitions SET projected = 1, activity = NULL WHERE id = ? AND projected = 0 AND emitted_at IS ? AND delivered_at IS ? AND counts_from IS ?',
        t.id,
        t.emitted_at,
        t.delivered_at,
        t.counts_from,
      );
    }
    for (const a of held) sql.exec('DELETE FROM pending_activity WHERE id = ?', a.id);
    this.checkIns.markSent(checkIns);
  }

  /**
   * A wake that recorded nothing — most are: a check-in left the alarm early, and it only moves the timer on —
   * carries just the timer and the check-ins held unsent. It is written into D1 here, the consumer's own way
   * (projection-batch.ts: one round trip, the check-ins' participants included), instead of queued: a queue
   * message is three billed operations and this was half of them (docs/performance.md). Whatever D1 does not
   * take now goes to the queue as before, so nothing waits on D1 for good.
   */
  private async writeQuietWake(messages: WakeProjection[]) {
    const { retry } = await applyProjections(createServiceContext(this.env), messages);
    if (retry.length)
      await sendInBatches(
        this.env.PROJECTIONS,
        retry.map((i) => messages[i]!),
      );
  }

  /** Records a timer event once (its cycle, kind and misses are unique). `projected`: D1 already has it. */
  private insertTransition(t: Pick<TransitionRow, (typeof TRANSITION_COLUMNS)[number]>, projected: boolean) {
    this.ctx.storage.sql.exec(
      `INSERT OR IGNORE INTO transitions (${TRANSITION_COLUMNS.join(', ')}, projected) VALUES (${TRANSITION_COLUMNS.map(() => '?').join(', ')}, ?)`,
      ...TRANSITION_COLUMNS.map((c) => t[c]),
      projected ? 1 : 0,
    );
  }

  /** This object's timer events where `where` holds, as D1's rows (with the canary and its owner). */
  private transitionsWhere(state: ClockState, where: string, ...params: SqlStorageValue[]): ObjectTransition[] {
    return this.ctx.storage.sql
      .exec<Omit<TransitionRow, 'canary_id' | 'user_id'> & Record<string, SqlStorageValue>>(`SELECT * FROM transitions WHERE ${where}`, ...params)
      .toArray()
      .map(({ projected: _, ...t }) => ({ ...t, canary_id: state.id, user_id: state.user_id }) as ObjectTransition);
  }

  private cycleRows(state: ClockState, cycle: number): TransitionRow[] {
    return this.transitionsWhere(state, 'cycle_deadline = ?', cycle);
  }

  private state(): ClockState | null {
    const row = this.ctx.storage.sql
      .exec<Omit<ClockState, 'schedule'> & { schedule: string | null } & Record<string, SqlStorageValue>>(
        'SELECT c.*, s.schedule, s.paused_until FROM canary_clock c LEFT JOIN canary_cadence s',
      )
      .toArray()[0];
    return row ? { ...row, schedule: row.schedule ? (JSON.parse(row.schedule) as TCanarySchedule) : null } : null;
  }

  private writeCadence(c: Pick<CadenceChange, 'schedule' | 'paused_until'>) {
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO canary_cadence (one, schedule, paused_until) VALUES (1, ?, ?)',
      c.schedule ? JSON.stringify(c.schedule) : null,
      c.paused_until,
    );
  }

  /**
   * The clock's state. On first touch (a new canary, or an object from before the clock kept state) it
   * is read from D1 once, with the current cycle's timer events. A canary D1 does not have is remembered
   * as gone, so its tokens keep failing without another query.
   */
  private async load(canaryId: string): Promise<ClockState | null> {
    const known = this.state();
    if (known && (known.gone || known.id !== canaryId)) return null;
    if (known?.user_id) return known;
    if (!canaryId) return null;
    const db = this.env.DB;
    const [canaries, cycle] = await db.batch([
      db
        .prepare('SELECT user_id, name, interval_seconds, last_check_in, token_version, active, schedule, paused_until FROM canaries WHERE id = ?')
        .bind(canaryId),
      // Every cycle after the last check-in: the current one is picked below (a calendar deadline is not SQL arithmetic).
      db
        .prepare(
          `SELECT ${TRANSITION_COLUMNS.join(', ')} FROM canary_transitions
           WHERE canary_id = ?1 AND cycle_deadline > (SELECT last_check_in FROM canaries WHERE id = ?1)`,
        )
        .bind(canaryId),
    ]);
    if (this.state()?.user_id) return this.load(canaryId); // another call seeded it while this one read D1
    const row = canaries?.results[0] as
      | {
          user_id: string;
          name: string;
          interval_seconds: number;
          last_check_in: number;
          token_version: number;
          active: number;
          schedule: string | null;
          paused_until: number | null;
        }
      | undefined;
    if (!row?.active) {
      await this.stop();
      return null;
    }
    const sql = this.ctx.storage.sql;
    // A migrated object may hold check-ins D1 has not seen yet: its own record wins, and its log is kept.
    const ownLatest = this.checkIns.latestAt();
    sql.exec(
      `INSERT INTO canary_clock (one, id, user_id, name, interval_seconds, last_check_in, token_version, timer_due_at)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (one) DO UPDATE SET id = excluded.id, user_id = excluded.user_id, name = excluded.name,
         interval_seconds = excluded.interval_seconds, last_check_in = excluded.last_check_in,
         token_version = excluded.token_version, timer_due_at = excluded.timer_due_at, gone = 0`,
      canaryId,
      row.user_id,
      row.name,
      row.interval_seconds,
      Math.max(row.last_check_in, ownLatest),
      row.token_version,
      known?.timer_due_at ?? null,
    );
    this.writeCadence({ schedule: row.schedule ? (JSON.parse(row.schedule) as TCanarySchedule) : null, paused_until: row.paused_until });
    const loaded = this.state()!;
    const current = cycleDeadlineOf(loaded);
    for (const t of (cycle?.results ?? []) as TransitionRow[]) if (t.cycle_deadline === current) this.insertTransition(t, true);
    return loaded;
  }

  /**
   * Records a check-in (`written`: D1 already has it — the Heartbeat's own batch — so it is neither sent nor
   * settled again) and sets the timer for the new cycle, in one write of the clock's row. Returns the next
   * wake the check-in leaves: when the canary next needs attention (plan-wake.ts nextAttention), and whether
   * the timer moved to it (its caller then moves D1's copy: the token check-in's projection, the Heartbeat's
   * own write).
   *
   * A check-in only moves deadlines later. The timer moves earlier when the new cycle's first need comes
   * before it (a pause notice); and it moves later to that need too, instead of leaving a wake
   * that would only re-arm — when that wake would come at least half its lead early (the first check-in of a
   * cycle, not each ping of a script), and unless the object owes D1 a projection (a timer event or activity
   * row not written yet, which that wake sends) or its alarm was set for a resend (not its timer). Each early wake
   * was an object request, an alarm and two timer writes (docs/performance.md "The check-in moves the timer").
   * No alarm armed — a wake the runtime gave up on, or a canary never armed — is no timer: the check-in arms its
   * own at once instead of leaving the lost one to the reconciler's next scan for lost timers.
   */
  private async recordAndRearm(state: ClockState, entry: ClockCheckIn, opts: { written: boolean }): Promise<{ next: number; moved: boolean }> {
    const sql = this.ctx.storage.sql;
    state.last_check_in = Math.max(state.last_check_in, entry.at);
    const next = nextAttention(state, this.cycleRows(state, cycleDeadlineOf(state)), entry.at);
    const held = state.timer_due_at;
    const was = await this.timerOf(state);
    // Later only when the wake left armed would come at least half its lead early: a script pinging every
    // minute would otherwise set the alarm on every ping, where one early wake per grace start costs less.
    // Never over a resend's alarm (a timer held): the resend's wake arms the timer itself.
    const muchLater = was !== null && (next - was) * 2 >= next - entry.at;
    const moves = was === null || next < was || (muchLater && held === null && !this.owesProjection());
    // Moved, the alarm is the timer again: nothing is held.
    if (moves) state.timer_due_at = null;
    // The log is read and written with no await between (check-in-log.ts): a check-in recorded meanwhile is kept.
    sql.exec(
      'UPDATE canary_clock SET last_check_in = max(last_check_in, ?), timer_due_at = ?, check_ins = ?',
      entry.at,
      state.timer_due_at,
      this.checkIns.withRecorded(entry, opts.written),
    );
    if (moves) await this.armAlarm(next);
    return { next, moved: moves && was !== next };
  }

  /**
   * The timer: the alarm, or the one held while a resend's alarm comes first. Null while the alarm handler runs
   * (the runtime clears a fired alarm) until the wake arms the next, and for a canary with no alarm at all.
   */
  private async timerOf(state: ClockState): Promise<number | null> {
    return state.timer_due_at ?? (await this.ctx.storage.getAlarm());
  }

  /** Whether a timer event or activity row is still to be written into D1 (a wake's projection sends it). */
  private owesProjection(): boolean {
    return (
      this.ctx.storage.sql
        .exec<{ owed: number }>('SELECT EXISTS (SELECT 1 FROM transitions WHERE projected = 0) OR EXISTS (SELECT 1 FROM pending_activity) AS owed')
        .one().owed === 1
    );
  }

  private async armAlarm(at: number) {
    const armed = await this.ctx.storage.getAlarm();
    if (armed !== at) await this.ctx.storage.setAlarm(at);
  }

  /**
   * Queues every check-in the object has not queued itself and D1 has not had from a settle (send, then
   * mark: a crash in between re-sends, never loses) — when a caller's send failed, and after
   * QUEUE_OWN_AFTER check-ins; a wake sends them in its own projection. A failed send arms a resend
   * (a wake) in RESEND_AFTER_MS; whoever decides on D1 settles first.
   */
  private sendPending(): Promise<void> {
    if (this.sending) {
      this.sendAgain = true;
      return this.sending;
    }
    this.sending = (async () => {
      try {
        let more = true;
        while (more) {
          this.sendAgain = false;
          const state = this.state();
          if (!state || state.gone) return;
          const rows = this.checkIns.unsent(CHECK_INS_PER_MESSAGE);
          if (!rows.length) return;
          await this.env.PROJECTIONS.sendBatch(rows.map((r) => ({ body: { type: 'canary_check_in', canary_id: state.id, ...r } satisfies CheckInProjection })));
          this.checkIns.markSent(rows);
          more = this.sendAgain || rows.length === CHECK_INS_PER_MESSAGE;
        }
      } catch (err) {
        log.error('could not queue a check-in for D1; retrying', { error: String(err) });
        const armed = await this.ctx.storage.getAlarm();
        const resendAt = Date.now() + RESEND_AFTER_MS;
        if (armed === null || resendAt < armed) {
          // The timer the resend's alarm replaces is held until the resend's wake arms it again (timerOf).
          const state = this.state();
          if (armed !== null && state && !state.gone && state.timer_due_at === null)
            this.ctx.storage.sql.exec('UPDATE canary_clock SET timer_due_at = ?', armed);
          await this.ctx.storage.setAlarm(resendAt);
        }
      } finally {
        this.sending = null;
      }
    })();
    return this.sending;
  }
}
