import { env } from 'cloudflare:test';
import { type BehaviourLog, relTime } from './behaviour-log';

/**
 * For a failure report only, never for judging: what the engine recorded for a person — their canary's
 * timer events and where each owner notice went — next to the timeline the oracle read.
 */
export async function engineRecordOf(log: BehaviourLog, person: number): Promise<string> {
  const p = log.people[person]!;
  const at = (t: number | null) => (t == null ? '—' : relTime(log, t));
  const { results: events } = await env.DB.prepare(
    `SELECT kind, misses, cycle_deadline, fired_at, counts_from, emitted_at, delivered_at, delivery_channel
     FROM canary_transitions WHERE user_id = ? ORDER BY canary_id, cycle_deadline, fired_at`,
  )
    .bind(p.userId)
    .all<Record<string, number | string | null>>();
  const { results: notices } = await env.DB.prepare(
    `SELECT n.kind, n.status, n.created_at, d.channel, d.address, d.ok, d.at
     FROM owner_notices n LEFT JOIN owner_notice_deliveries d ON d.notice_id = n.id WHERE n.user_id = ? ORDER BY n.created_at, d.at`,
  )
    .bind(p.userId)
    .all<Record<string, number | string | null>>();
  return [
    `  engine record of person ${person} (diagnostics, not judged):`,
    ...events.map(
      (e) =>
        `    ${e.kind} ${e.misses} cycle ${at(e.cycle_deadline as number)} fired ${at(e.fired_at as number)} counts ${at(e.counts_from as number | null)} emitted ${at(e.emitted_at as number | null)} delivered ${at(e.delivered_at as number | null)} ${e.delivery_channel ?? ''}`,
    ),
    ...notices.map(
      (n) =>
        `    notice ${n.kind} ${n.status} created ${at(n.created_at as number)} → ${n.channel ?? '—'} ${n.address ?? ''} ${n.ok ? 'accepted' : 'refused'} ${at(n.at as number | null)}`,
    ),
  ].join('\n');
}

/** The people an UNWARNED failure names (report.ts words it "UNWARNED (…): person N, …"), for their engine record. */
export function unwarnedPeople(failures: readonly string[]): number[] {
  return [...new Set(failures.flatMap((f) => (f.startsWith('UNWARNED') ? [Number(/: person (\d+),/.exec(f)?.[1])] : [])).filter((n) => !Number.isNaN(n)))];
}
