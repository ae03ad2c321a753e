import type { TActivity } from '@afterword/worker/contracts/activity';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime, formatRelative, localizeServerTimes } from '../../lib/format-time';

interface RecentActivityProps {
  /** Loaded: the page shows the loading and error states (components/query-state.tsx). */
  items: readonly TActivity[];
  nowMs: number;
}

/** The dashboard's Recent Activity: the latest entries, newest first, with relative times. */
export function RecentActivity({ items, nowMs }: RecentActivityProps) {
  if (!items.length) {
    return (
      <EmptyState title="No activity yet.">
        <p>Check-ins, reminders and changes to your canaries will be listed here.</p>
      </EmptyState>
    );
  }
  return (
    <ol className="activity-list">
      {items.map((item) => (
        <li key={item.id} className="activity-list__item">
          <span className="activity-list__summary">{localizeServerTimes(item.summary)}</span>
          <time className="activity-list__time muted" dateTime={item.created_at} title={formatDateTime(item.created_at)}>
            {formatRelative(item.created_at, nowMs)}
          </time>
        </li>
      ))}
    </ol>
  );
}
