import type { MessageTransitionView } from '@afterword/worker/contracts/messages';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime, localizeServerTimes } from '../../lib/format-time';
import { STATUS_LABEL } from './format';

/** A message's life as a vertical timeline: when it moved, from which state to which, and why. */
export function StateHistory({ transitions }: { transitions: readonly MessageTransitionView[] }) {
  if (!transitions.length) return <EmptyState title="No history yet." />;
  const sorted = [...transitions].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <ol className="timeline">
      {sorted.map((t, i) => (
        <li key={`${t.at}-${t.to}-${i}`} className={`timeline__item timeline__item--${t.to}`}>
          <span className="timeline__dot" aria-hidden="true" />
          <p className="timeline__head">
            <time dateTime={t.at}>{formatDateTime(t.at)}</time>
            <span className="timeline__states">
              {t.from ? (
                <>
                  {STATUS_LABEL[t.from] ?? t.from} <span aria-hidden="true">→</span>
                  <span className="visually-hidden"> to </span> {STATUS_LABEL[t.to] ?? t.to}
                </>
              ) : (
                (STATUS_LABEL[t.to] ?? t.to)
              )}
            </span>
          </p>
          {t.detail ? <p className="timeline__detail">{localizeServerTimes(t.detail)}</p> : null}
        </li>
      ))}
    </ol>
  );
}
