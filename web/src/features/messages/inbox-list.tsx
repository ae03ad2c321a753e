import type { MessageView } from '@afterword/worker/contracts/messages';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { Skeleton } from '../../components/skeleton';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/format-time';
import { excerpt, senderLabel } from './format';

interface InboxListProps {
  messages: readonly MessageView[] | undefined;
  loading: boolean;
  failed: boolean;
  /** The preview of an end-to-end encrypted message (opened in the browser by features/e2ee). */
  renderEncryptedExcerpt?: (message: MessageView) => ReactNode;
}

/** Messages released to the signed-in user: who left each one and when it was released. */
export function InboxList({ messages, loading, failed, renderEncryptedExcerpt }: InboxListProps) {
  if (loading) return <Skeleton lines={4} label="Loading your inbox" />;
  if (failed) return <p className="muted">Your inbox could not be loaded. Reload the page to try again.</p>;
  if (!messages?.length) {
    return (
      <EmptyState title="Your inbox is empty.">
        <p>When someone's message to you is released, it appears here and you are told by the way they chose.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="message-list">
      {messages.map((m) => {
        const from = senderLabel(m);
        const released = m.released_at ?? m.deliver_at;
        return (
          <li key={m.id} className="message-item">
            <div className="message-item__head">
              <h3 className="message-item__title">From {from}</h3>
            </div>
            <p className="message-item__excerpt">{m.use_e2ee && m.content_encrypted && renderEncryptedExcerpt ? renderEncryptedExcerpt(m) : excerpt(m)}</p>
            <dl className="facts">
              <div>
                <dt>From</dt>
                <dd className="break">{m.sender_name?.trim() && m.sender_email ? `${m.sender_name.trim()} (${m.sender_email})` : from}</dd>
              </div>
              <div>
                <dt>Released</dt>
                <dd>
                  <time dateTime={released}>{formatDateTime(released)}</time>
                </dd>
              </div>
            </dl>
            <Link to="/app/messages/view/$id" params={{ id: m.id }} className={buttonClass('secondary')}>
              Open<span className="visually-hidden"> the message from {from}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
