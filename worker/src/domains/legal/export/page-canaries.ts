import { esc, field, table, when } from './html';
import { groupRows, type PageSource, rowsOf } from './page-source';

const UNITS: [number, string][] = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
];

/** "every 2 days", "every 36 hours": the largest unit that divides the interval. */
function every(seconds: number): string {
  const [size, unit] = UNITS.find(([size]) => seconds % size === 0) ?? [1, 'second'];
  const n = seconds / size;
  return `every ${n === 1 ? '' : `${n} `}${unit}${n === 1 ? '' : 's'}`;
}

function cadence(canary: Record<string, unknown>): string {
  if (typeof canary.schedule !== 'string') return esc(every(Number(canary.interval_seconds)));
  try {
    const s = JSON.parse(canary.schedule) as Record<string, unknown>;
    const days = Array.isArray(s.days) ? ` on ${s.days.join(', ')}` : s.day ? ` on day ${s.day}` : s.week ? ` on the ${s.week} ${s.weekday}` : '';
    return esc(`${String(s.kind).replace(/_/g, ' ')}${days} at ${s.time} (${s.time_zone})`);
  } catch {
    return esc(canary.schedule);
  }
}

const KINDS: Record<string, string> = {
  grace_reminder: 'Reminder before the deadline',
  missed: 'Missed check-in',
  late_rewarn: 'Warned again after a late deadline',
  pause_ending: 'Pause ending soon',
};

/** canaries.html: each canary, what its timer recorded (reminders, misses), then every check-in and event. */
export async function* canariesPage(s: PageSource): AsyncGenerator<string> {
  const history = await groupRows(s, 'canary_history', 'canary_id');
  const names = new Map<string, string>();
  yield '<h2>Your canaries</h2>\n';
  for await (const c of rowsOf(s, 'canaries')) {
    const id = String(c.id);
    const name = String(c.name || 'Unnamed canary');
    names.set(id, name);
    const rows = (history.get(id) ?? []).map((t) => [
      when(t.fired_at),
      esc(KINDS[String(t.kind)] ?? t.kind),
      esc(t.misses),
      when(t.due_at),
      esc(t.delivery_status ? `${t.delivery_status}${t.delivery_channel ? ` by ${t.delivery_channel}` : ''}` : '—'),
    ]);
    yield `<article id="canary-${esc(id)}"><h3>${esc(name)}</h3>
<dl>${[
      field('Check in', cadence(c)),
      field('State', c.active ? 'on' : 'off'),
      field('Last check-in', when(c.last_check_in)),
      field('Paused until', when(c.paused_until)),
      field('Created', when(c.created_at)),
    ].join('')}</dl>
${table(['When', 'What', 'Misses', 'Due', 'Reminder'], rows, 'No reminders or missed check-ins.')}
</article>
`;
  }
  if (names.size === 0) yield '<p class="empty">No canaries.</p>\n';
  yield '<h2>Check-ins and other events</h2>\n<table><thead><tr><th scope="col">When</th><th scope="col">Canary</th><th scope="col">What</th><th scope="col">How</th><th scope="col">Summary</th></tr></thead><tbody>\n';
  for await (const a of rowsOf(s, 'activity')) {
    const canary = typeof a.canary_id === 'string' ? (names.get(a.canary_id) ?? 'a deleted canary') : '—';
    yield `<tr><td>${when(a.created_at)}</td><td>${esc(canary)}</td><td>${esc(String(a.kind).replace(/_/g, ' '))}</td><td>${esc(a.source ?? '—')}</td><td>${esc(a.summary)}</td></tr>\n`;
  }
  yield '</tbody></table>\n';
}
