import type { Meter } from '@afterword/worker/contracts/billing';
import { formatBytes } from '@afterword/worker/contracts/attachments';
import { formatDate } from '../../lib/format-time';

const amount = (m: Meter, n: number) => (m.key === 'storage_bytes' ? formatBytes(n) : n.toLocaleString('en-US'));

/** One bar per meter: used against the plan's limit, in words too; "unlimited" and per-session limits as text. */
export function MeterBars({ meters }: { meters: Meter[] }) {
  return (
    <ul className="meter-list">
      {meters.map((m) => {
        const words =
          m.used === null
            ? `${m.limit ?? 'Unlimited'} per session`
            : m.limit === null
              ? `${amount(m, m.used)} used, unlimited`
              : `${amount(m, m.used)} of ${amount(m, m.limit)}${m.used > m.limit ? ' — over the plan: nothing is removed, creating more is paused' : ''}`;
        return (
          <li key={m.key} className="meter-list__item" data-testid={`meter-${m.key}`}>
            <span className="meter-list__label">{m.label}</span>
            <span className="meter-list__value">{words}</span>
            {m.used !== null && m.limit !== null ? (
              <meter min={0} max={Math.max(m.limit, 1)} value={Math.min(m.used, m.limit)} high={m.limit * 0.8} aria-label={`${m.label}: ${words}`} />
            ) : null}
            {m.resets_at ? <span className="muted meter-list__note">Starts again on {formatDate(m.resets_at)}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
