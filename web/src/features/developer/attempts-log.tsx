import { TableScroll } from '../../components/table-scroll';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import { formatDuration } from './format';
import type { WebhookAttempt } from './types';

/** What made the delivery, in words: a real miss, 'Send test event', or a sandbox key's simulated event. */
export const ORIGIN_LABEL: Record<WebhookAttempt['origin'], string> = { event: 'Missed check-in', test: 'Test event', sandbox: 'Sandbox (simulated)' };

const succeeded = (a: WebhookAttempt) => a.success ?? (a.status_code !== null && a.status_code >= 200 && a.status_code < 300);

/** Every delivery attempt, newest first: time, `webhook-id`, attempt number, status code, duration, error, and what sent it. */
export function AttemptsLog({ attempts, label }: { attempts: readonly WebhookAttempt[] /** Names the table, e.g. the endpoint's URL. */; label: string }) {
  if (!attempts.length) {
    return (
      <EmptyState title="No delivery attempts yet.">
        <p>Each attempt to deliver an event here, including test events and retries, is listed with its result.</p>
      </EmptyState>
    );
  }
  const sorted = [...attempts].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  return (
    <TableScroll label={`Delivery attempts to ${label}`}>
      <table className="table log-table attempts-table">
        <caption className="visually-hidden">Delivery attempts to {label}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">
              <code>webhook-id</code>
            </th>
            <th scope="col">Attempt</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Error</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((a) => (
            <tr key={a.id}>
              <td>
                <time dateTime={a.created_at}>{formatDateTime(a.created_at)}</time>
              </td>
              <td>
                <code>{a.message_id}</code>
              </td>
              <td>{a.attempt}</td>
              <td>
                <Badge tone={succeeded(a) ? 'active' : 'missed'}>
                  {a.status_code === null ? 'No answer' : `${a.status_code} ${succeeded(a) ? 'delivered' : 'failed'}`}
                </Badge>
              </td>
              <td>{formatDuration(a.duration_ms)}</td>
              <td className="log-table__error">{a.error ?? <span className="muted">—</span>}</td>
              <td>{ORIGIN_LABEL[a.origin]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
