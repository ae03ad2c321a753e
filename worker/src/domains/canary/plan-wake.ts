import { type CanaryClockState, canaryDeadline, canaryHealth, graceOf } from '../../contracts/canary-health';
import { occurrencesBetween, PAUSE_NOTICE_BEFORE_MS, type TCanarySchedule } from '../../contracts/canary-schedule';
import type { MissedCheckinsEvent, TransitionRow } from '../../contracts/jobs';

/**
 * The canary engine's rules for one wake, as a pure function (docs/decisions/canary-engine.md,
 * docs/server-rules.md "Canaries and check-ins"): given the canary's clock and what its current cycle has
 * recorded, what is due now — the grace-entry reminder, a re-warning with a fresh grace period when the service
 * was late or the owner was never warned, each missed interval — and when the canary next needs attention. The
 * canary's Durable Object runs it on its own storage (durable/canary-clock.ts); nothing here touches D1.
 */
export type RecordedBy = TransitionRow['recorded_by'];
export type { TransitionRow };

export interface CanaryFacts {
  id: string;
  user_id: string;
  name: string;
  interval_seconds: number;
  last_check_in: number;
  /** A calendar schedule (contracts/canary-schedule.ts), or null: an interval canary. */
  schedule: TCanarySchedule | null;
  /** The end of a vacation pause (ms): the cycle starts there if that is after the last check-in. */
  paused_until: number | null;
}

type Cadence = Pick<CanaryFacts, 'last_check_in' | 'interval_seconds' | 'schedule' | 'paused_until'>;

/** The shared health function's view of a canary's facts. */
export const clockStateOf = (canary: Cadence): CanaryClockState => ({
  lastCheckInMs: canary.last_check_in,
  intervalSeconds: canary.interval_seconds,
  schedule: canary.schedule,
  pausedUntilMs: canary.paused_until,
});

/** The canary's grace period in ms (20 % of the interval, or the schedule's stated grace). */
export const graceOfFacts = (canary: Pick<CanaryFacts, 'interval_seconds' | 'schedule'>) =>
  graceOf({ intervalSeconds: canary.interval_seconds, schedule: canary.schedule });

/** A timer event's columns, in one order for the object's table and D1's (everything but its canary and user). */
export const TRANSITION_COLUMNS = [
  'id',
  'cycle_deadline',
  'kind',
  'misses',
  'due_at',
  'fired_at',
  'counts_from',
  'emitted_at',
  'delivery_channel',
  'delivery_status',
  'delivered_at',
  'recorded_by',
] as const satisfies readonly (keyof TransitionRow)[];

/** At most this many missed intervals are recorded by one run; the rest follow in the next run. */
export const MAX_MISSES_PER_RUN = 500;

/**
 * A reminder delivered this much less than one grace period before the deadline still counts as
 * "one grace period earlier": delivery itself takes a moment (docs/server-rules.md "Canaries and check-ins").
 */
export const warningTolerance = (graceMillis: number) => Math.min(60_000, Math.round(graceMillis * 0.05));

/** The deadline of the canary's current cycle. */
export const cycleDeadlineOf = (canary: Cadence) => canaryDeadline(clockStateOf(canary));

/** What is due at `now` that `recorded` (the current cycle's rows) does not have yet. */
export function planWake(canary: CanaryFacts, recorded: readonly TransitionRow[], now: number, recordedBy: RecordedBy): { rows: TransitionRow[] } {
  const intervalMs = canary.interval_seconds * 1000;
  const health = canaryHealth(clockStateOf(canary), now);
  const grace = health.graceMs;
  const deadline = health.deadlineMs;
  // A calendar canary's misses fall on its scheduled instants, an interval canary's one interval apart.
  const scheduled = canary.schedule && health.misses ? occurrencesBetween(canary.schedule, deadline, now, health.misses) : null;
  const missDue = (misses: number) => scheduled?.[misses - 1] ?? deadline + (misses - 1) * intervalMs;
  const find = (kind: TransitionRow['kind'], misses: number) => recorded.find((t) => t.kind === kind && t.misses === misses);
  const rows: TransitionRow[] = [];
  const base = {
    canary_id: canary.id,
    user_id: canary.user_id,
    cycle_deadline: deadline,
    fired_at: now,
    recorded_by: recordedBy,
    counts_from: null,
    emitted_at: null,
    delivery_channel: null,
    delivery_status: null,
    delivered_at: null,
  } as const;
  // The feed's lines for these events are made from them when the feed is read (event-lines.ts): a wake writes none.

  // A vacation pause ends soon: the owner is told a day before (at once for a shorter pause), so the
  // deadline after it does not come as a surprise. Told once per cycle; not a warning (no miss waits for it).
  const pauseNoticeAt = pauseNoticeDueAt(canary);
  if (pauseNoticeAt !== null && now >= pauseNoticeAt && now < canary.paused_until! && !find('pause_ending', 0)) {
    rows.push({ ...base, id: crypto.randomUUID(), kind: 'pause_ending', misses: 0, due_at: pauseNoticeAt });
  }

  if (health.status === 'grace' && !find('grace_reminder', 0)) {
    // A warning: sent to the owner's channels by the object (warningsToSend) and delivered when a channel
    // accepted it — until then it counts for nothing.
    rows.push({ ...base, id: crypto.randomUUID(), kind: 'grace_reminder', misses: 0, due_at: health.graceStartsMs, delivery_status: 'pending' });
  }

  if (health.status === 'missed') {
    const first = find('missed', 1);
    // From when this cycle's misses count; null while they wait for a warning to reach the owner.
    let countsFrom: number | null = first ? first.counts_from : now;
    if (!first) {
      const reminder = find('grace_reminder', 0);
      const warned = reminder?.delivered_at != null && now - reminder.delivered_at >= grace - warningTolerance(grace);
      const onTime = now - deadline <= grace;
      if (!warned || !onTime) {
        // docs/server-rules.md "Canaries and check-ins": our lateness (or a warning that never reached the
        // owner) must not become a release. Warn now; the misses count one grace period after a warning reaches them.
        countsFrom = null;
        if (!find('late_rewarn', 0)) {
          rows.push({ ...base, id: crypto.randomUUID(), kind: 'late_rewarn', misses: 0, due_at: deadline, delivery_status: 'pending' });
        }
      }
    }
    // After a long outage many intervals may be due at once: record them in bounded runs (the next
    // run follows at once); the feed shows one line per run (event-lines.ts), not one per interval.
    const recordedMisses = new Set(recorded.filter((t) => t.kind === 'missed').map((t) => t.misses));
    const unrecorded: number[] = [];
    for (let misses = 1; misses <= health.misses && unrecorded.length < MAX_MISSES_PER_RUN; misses++) {
      if (!recordedMisses.has(misses)) unrecorded.push(misses);
    }
    for (const misses of unrecorded) {
      const dueAt = missDue(misses);
      rows.push({
        ...base,
        id: crypto.randomUUID(),
        kind: 'missed',
        misses,
        due_at: dueAt,
        counts_from: countsFrom === null ? null : Math.max(dueAt, countsFrom),
      });
    }
  }
  return { rows };
}

/** When the owner is told that the pause ends (a day before it), or null when the canary is not paused. */
export function pauseNoticeDueAt(canary: Pick<CanaryFacts, 'paused_until'>): number | null {
  return canary.paused_until == null ? null : canary.paused_until - PAUSE_NOTICE_BEFORE_MS;
}

/**
 * The current cycle's pause-ending notice, once, when it was recorded and not sent yet — and only while the
 * pause lasts: a send that failed is not made up after the pause has ended, when "your pause ends soon" would
 * be false (found by worker/test/canary-model.test.ts: a failed send, then the deadline's wake after the pause).
 */
export function pauseNoticesToSend(canary: Cadence, recorded: readonly TransitionRow[], now: number): TransitionRow[] {
  if (canary.paused_until == null || now >= canary.paused_until) return [];
  const cycle = cycleDeadlineOf(canary);
  return recorded.filter((t) => t.kind === 'pause_ending' && t.cycle_deadline === cycle && t.emitted_at == null);
}

/** The misses of the current cycle that count by `now` and were not sent yet, in order. */
export function missesToEmit(canary: Cadence, recorded: readonly TransitionRow[], now: number): TransitionRow[] {
  const cycle = cycleDeadlineOf(canary);
  return recorded
    .filter((t) => t.kind === 'missed' && t.emitted_at == null && t.counts_from != null && t.counts_from <= now && t.cycle_deadline === cycle)
    .sort((a, b) => a.misses - b.misses);
}

/**
 * When an undelivered warning is sent again: as long after its last send as that send was after the
 * warning was recorded (so 1, 2, 4, 8 … minutes), at least a minute and at most half an hour apart
 * (WARNING_RESEND_MAX_MS). A channel that is down for hours is tried again for as long as the cycle lasts;
 * nothing counts meanwhile.
 * Not before `recheck_at`, the canary object's own mark on a warning whose notice waits in D1 for its own
 * next try (durable/canary-clock.ts warningsNotWaiting).
 */
export const WARNING_RESEND_MIN_MS = 60_000;
/**
 * The longest wait between two tries of a warning no channel took (here and the notice's own backoff,
 * owner-notices/send-owner-notice.ts retryAfterMs): after a provider's outage of hours the warning reaches the
 * owner within half an hour of its return, not up to six hours later as it did with a six-hour cap
 * (docs/decisions/canary-engine.md, "Undelivered"). An outage of eight hours costs about twenty tries.
 */
export const WARNING_RESEND_MAX_MS = 30 * 60_000;
export const warningResendAt = (t: Pick<TransitionRow, 'fired_at' | 'emitted_at'> & { recheck_at?: number | null }) =>
  t.emitted_at == null
    ? t.fired_at
    : Math.max(t.recheck_at ?? 0, t.emitted_at + Math.min(WARNING_RESEND_MAX_MS, Math.max(WARNING_RESEND_MIN_MS, t.emitted_at - t.fired_at)));

/**
 * The current cycle's warnings that no channel has accepted yet and still matter: the grace reminder
 * until the first miss is recorded, then the re-warning while the misses wait for one (a re-warning
 * supersedes the reminder, whose words no longer fit).
 */
export function undeliveredWarnings(canary: Cadence, recorded: readonly TransitionRow[]): TransitionRow[] {
  const cycle = cycleDeadlineOf(canary);
  const first = recorded.find((t) => t.kind === 'missed' && t.misses === 1 && t.cycle_deadline === cycle);
  return recorded.filter(
    (t) =>
      t.cycle_deadline === cycle && t.delivered_at == null && (first ? t.kind === 'late_rewarn' && first.counts_from == null : t.kind === 'grace_reminder'),
  );
}

/** The undelivered warnings due to be sent (again) at `now`. */
export function warningsToSend(canary: Cadence, recorded: readonly TransitionRow[], now: number): TransitionRow[] {
  return undeliveredWarnings(canary, recorded).filter((t) => warningResendAt(t) <= now);
}

/**
 * A warning of the cycle reached the owner at `deliveredAt`: the misses still waiting for one (recorded
 * after a re-warning, `counts_from` null) count one grace period later — never earlier than they are due.
 * A delivery before the first miss was recorded does not count for them: that miss found the owner not
 * warned in time and asked for a fresh warning. Returns the rows to change.
 */
export function countsAfterWarning(
  canary: Pick<CanaryFacts, 'interval_seconds' | 'schedule'>,
  cycleRows: readonly TransitionRow[],
  deliveredAt: number,
): { id: string; counts_from: number }[] {
  const first = cycleRows.find((t) => t.kind === 'missed' && t.misses === 1);
  if (!first || first.counts_from != null || deliveredAt < first.fired_at) return [];
  const from = deliveredAt + graceOfFacts(canary);
  return cycleRows.filter((t) => t.kind === 'missed' && t.counts_from == null).map((t) => ({ id: t.id, counts_from: Math.max(t.due_at, from) }));
}

export function toMissedEvent(
  t: Pick<TransitionRow, 'id' | 'user_id' | 'canary_id' | 'misses' | 'cycle_deadline' | 'fired_at' | 'counts_from'>,
): MissedCheckinsEvent {
  // A miss fires when it counts: recorded at `fired_at`, it may count only later (`counts_from`, a grace
  // period after a warning reached the owner). Rules arm from this instant, so a cancel window waiting
  // for a warning is not shortened by the wait (found by worker/test/system-simulation.test.ts).
  return {
    type: 'missed_checkins',
    event_id: t.id,
    user_id: t.user_id,
    canary_id: t.canary_id,
    misses: t.misses,
    deadline: new Date(t.cycle_deadline).toISOString(),
    fired_at: new Date(Math.max(t.fired_at, t.counts_from ?? t.fired_at)).toISOString(),
  };
}

/**
 * When the canary next needs attention, given the cycle's rows after this wake: a reminder, a deadline,
 * the next miss, or a miss that starts to count. A backlog of unrecorded misses asks for the next run at once.
 */
export function nextAttention(canary: CanaryFacts, recorded: readonly TransitionRow[], now: number): number {
  const health = canaryHealth(clockStateOf(canary), now);
  if (health.status === 'missed' && recorded.filter((t) => t.kind === 'missed').length < health.misses) return now + 1;
  const candidates: number[] = [];
  if (health.status === 'active') candidates.push(health.graceStartsMs);
  if (health.status !== 'missed') candidates.push(health.deadlineMs);
  else candidates.push(health.nextMissMs);
  const pauseNoticeAt = pauseNoticeDueAt(canary);
  if (pauseNoticeAt !== null && now < canary.paused_until! && !recorded.some((t) => t.kind === 'pause_ending'))
    candidates.push(Math.max(now + 1, pauseNoticeAt));
  // A pause notice whose send failed is tried again a minute later, while the pause lasts.
  if (pauseNoticesToSend(canary, recorded, now).length) candidates.push(Math.min(now + WARNING_RESEND_MIN_MS, canary.paused_until! - 1));
  for (const t of recorded) {
    if (t.kind === 'missed' && t.emitted_at == null && t.counts_from != null && t.counts_from > now) candidates.push(t.counts_from);
  }
  // An undelivered warning is sent again (a delivery wakes the object itself: CanaryClock.warningDelivered).
  for (const t of undeliveredWarnings(canary, recorded)) candidates.push(Math.max(now + 1, warningResendAt(t)));
  return Math.min(...candidates.filter((c) => c > now));
}
