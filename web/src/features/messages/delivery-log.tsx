import type { DeliveryLogEntry } from '@afterword/worker/contracts/messages';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { TableScroll } from '../../components/table-scroll';
import { formatDateTime } from '../../lib/format-time';
import { CHANNEL_LABEL } from './format';

/** A compact table: time, channel, success or failed, and the channel's error when there is one. */
export function DeliveryLog({ entries }: { entries: readonly DeliveryLogEntry[] }) {
  if (!entries.length) {
    return (
      <EmptyState title="Nothing has been sent yet.">
        <p>Each attempt to deliver this message, on every channel, is listed here with its result.</p>
      </EmptyState>
    );
  }
  const sorted = [...entries].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  return (
    <TableScroll label="Delivery log">
      <table className="table log-table">
        <caption className="visually-hidden">Delivery log, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Channel</th>
            <th scope="col">Result</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((e, i) => (
            <tr key={`${e.created_at}-${e.channel}-${e.attempt}-${i}`}>
              <td>
                <time dateTime={e.created_at}>{formatDateTime(e.created_at)}</time>
              </td>
              <td>
                {CHANNEL_LABEL[e.channel] ?? e.channel}
                {e.attempt > 1 ? <span className="muted"> (attempt {e.attempt})</span> : null}
              </td>
              <td>
                <Badge tone={e.success ? 'active' : 'missed'}>{e.success ? 'Success' : 'Failed'}</Badge>
              </td>
              <td className="log-table__error">{e.error ?? <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
