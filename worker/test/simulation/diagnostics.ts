import { env } from 'cloudflare:test';
import { type BehaviourLog, relTime } from './behaviour-log';

type Row = Record<string, number | string | null>;

/** What the engine holds of a person in D1: their canaries' rows, their timer events, their notices and where each went. */
export interface EngineRows {
  canaries: Row[];
  events: Row[];
  notices: Row[];
}

/** Reads a person's engine rows (an erasure takes them: ErasureWatch keeps the last read before it). */
export async function engineRowsOf(userId: string): Promise<EngineRows> {
  const { results: canaries } = await env.DB.prepare(
    'SELECT name, active, last_check_in, timer_due_at, paused_until FROM canaries WHERE user_id = ? ORDER BY created_at, id',
  )
    .bind(userId)
    .all<Row>();
  const { results: events } = await env.DB.prepare(
    `SELECT kind, misses, cycle_deadline, fired_at, counts_from, emitted_at, delivered_at, delivery_channel
     FROM canary_transitions WHERE user_id = ? ORDER BY canary_id, cycle_deadline, fired_at`,
  )
    .bind(userId)
    .all<Row>();
  const { results: notices } = await env.DB.prepare(
    `SELECT n.kind, n.status, n.created_at, d.channel, d.address, d.ok, d.at
     FROM owner_notices n LEFT JOIN owner_notice_deliveries d ON d.notice_id = n.id WHERE n.user_id = ? ORDER BY n.created_at, d.at`,
  )
    .bind(userId)
    .all<Row>();
  return { canaries, events, notices };
}

/**
 * For a failure report only, never for judging: what the engine recorded for a person — D1's copy of each canary's
 * last check-in and timer, its timer events and where each owner notice went — next to the timeline the oracle read.
 * For a person erased during the run, `beforeErasure` is the last read of those rows before the erasure took them.
 */
export async function engineRecordOf(log: BehaviourLog, person: number, beforeErasure?: EngineRows): Promise<string> {
  const p = log.people[person]!;
  const at = (t: number | null) => (t == null ? '—' : relTime(log, t));
  const rows = beforeErasure ?? (await engineRowsOf(p.userId));
  return [
    `  engine record of person ${person} (diagnostics, not judged${beforeErasure ? '; read before their account was erased' : ''}):`,
    ...rows.canaries.map(
      (c) =>
        `    canary "${c.name}"${c.active ? '' : ' (inactive)'}: D1's last check-in ${at(c.last_check_in as number)}, D1's timer ${at(c.timer_due_at as number | null)}${c.paused_until ? `, paused until ${at(c.paused_until as number)}` : ''}`,
    ),
    ...rows.events.map(
      (e) =>
        `    ${e.kind} ${e.misses} cycle ${at(e.cycle_deadline as number)} fired ${at(e.fired_at as number)} counts ${at(e.counts_from as number | null)} emitted ${at(e.emitted_at as number | null)} delivered ${at(e.delivered_at as number | null)} ${e.delivery_channel ?? ''}`,
    ),
    ...rows.notices.map(
      (n) =>
        `    notice ${n.kind} ${n.status} created ${at(n.created_at as number)} → ${n.channel ?? '—'} ${n.address ?? ''} ${n.ok ? 'accepted' : 'refused'} ${at(n.at as number | null)}`,
    ),
  ].join('\n');
}

/** The people an UNWARNED failure names (report.ts words it "UNWARNED (…): person N, …"), for their engine record. */
export function unwarnedPeople(failures: readonly string[]): number[] {
  return [...new Set(failures.flatMap((f) => (f.startsWith('UNWARNED') ? [Number(/: person (\d+),/.exec(f)?.[1])] : [])).filter((n) => !Number.isNaN(n)))];
}
