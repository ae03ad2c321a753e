import type { ReceivedMessage } from '@afterword/worker/contracts/messages';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Badge } from '../../components/badge';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import { excerpt } from './format';
import { fromFull, fromLabel, releaseReasonText } from './release-reason';

interface InboxListProps {
  messages: readonly ReceivedMessage[];
  /** The preview of an end-to-end encrypted message (opened in the browser by features/e2ee). */
  renderEncryptedExcerpt?: (message: ReceivedMessage) => ReactNode;
}

/** Messages released to the signed-in user: who left each one, when and why it was released, and whether it was opened. */
export function InboxList({ messages, renderEncryptedExcerpt }: InboxListProps) {
  if (!messages.length) {
    return (
      <EmptyState title="Your inbox is empty.">
        <p>When someone's message to you is released, it appears here and you are told by the way they chose.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="message-list">
      {messages.map((m) => {
        const from = fromLabel(m);
        return (
          <li key={m.id} className="message-item">
            <div className="message-item__head">
              <h3 className="message-item__title">From {from}</h3>
              {m.read_at ? null : <Badge tone="accent">Unread</Badge>}
            </div>
            <p className="message-item__excerpt">{m.use_e2ee && m.content_encrypted && renderEncryptedExcerpt ? renderEncryptedExcerpt(m) : excerpt(m)}</p>
            <dl className="facts">
              <div>
                <dt>From</dt>
                <dd className="break">{fromFull(m)}</dd>
              </div>
              <div>
                <dt>Released</dt>
                <dd>
                  <time dateTime={m.released_at}>{formatDateTime(m.released_at)}</time>
                </dd>
              </div>
            </dl>
            <p className="muted">{releaseReasonText(m.release_reason, from)}</p>
            <Link to="/app/inbox/$id" params={{ id: m.id }} className={buttonClass('secondary')}>
              Open<span className="visually-hidden"> the message from {from}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
