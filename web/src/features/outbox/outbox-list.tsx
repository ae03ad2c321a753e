import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';

export interface OutboxItem {
  id: string;
  channel: string;
  address: string;
  subject: string | null;
  text: string;
  link: string | null;
  created_at: string;
}

const CHANNEL: Record<string, string> = { email: 'Email', sms: 'SMS', call: 'Phone call', push: 'Push notification' };

/** Only links into this app are made clickable; anything else is shown as text. */
function safeHref(link: string): string | null {
  try {
    const url = new URL(link, window.location.origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** What would have been sent to the signed-in person, newest first. */
export function OutboxList({ items }: { items: readonly OutboxItem[] }) {
  if (!items.length) {
    return (
      <EmptyState title="Nothing for you yet.">
        <p>
          When Afterword would email you, text you, call you or notify one of your devices — a message released to you, a notice about your own messages, a
          password reset link, a phone code — it appears here at once.
        </p>
      </EmptyState>
    );
  }
  const sorted = [...items].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  return (
    <ol className="message-list outbox-list">
      {sorted.map((item) => {
        const href = item.link ? safeHref(item.link) : null;
        return (
          <li key={item.id} className="message-item outbox-item">
            <div className="message-item__head">
              <h3 className="message-item__title">{item.subject || `${CHANNEL[item.channel] ?? item.channel} to ${item.address}`}</h3>
              <Badge tone="accent">{CHANNEL[item.channel] ?? item.channel}</Badge>
            </div>
            <dl className="facts">
              <div>
                <dt>To</dt>
                <dd className="break">{item.address}</dd>
              </div>
              <div>
                <dt>Time</dt>
                <dd>
                  <time dateTime={item.created_at}>{formatDateTime(item.created_at)}</time>
                </dd>
              </div>
            </dl>
            <div className="message-content outbox-item__text">{item.text}</div>
            {item.link ? (
              <p className="outbox-item__link">
                Link:{' '}
                {href ? (
                  <a href={href} className="break">
                    {item.link}
                  </a>
                ) : (
                  <span className="break">{item.link}</span>
                )}
              </p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
