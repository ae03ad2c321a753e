import { MESSAGE_FILTERS, type MessageFilter, type MessageView } from '@afterword/worker/contracts/messages';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { Time } from '../../components/time';
import { Badge } from '../../components/badge';
import { describeRule, excerpt, LEFT_RECIPIENT, METHOD_LABEL, recipientLabel, PAUSED_LABEL } from './format';
import { StatusBadge } from './status-badge';
import { Email } from '../../components/email';

export const FILTER_LABEL: Record<MessageFilter, string> = { all: 'All', pending: 'Pending', sent: 'Sent' };

/** docs/product.md "Messages and release rules": Pending = not delivered, Sent = delivered. */
export function matchesFilter(message: Pick<MessageView, 'delivered'>, filter: MessageFilter): boolean {
  if (filter === 'pending') return !message.delivered;
  if (filter === 'sent') return message.delivered;
  return true;
}

/** Toggle buttons (aria-pressed), like the pricing cycle tabs. */
export function MessageFilterTabs({ value, onChange }: { value: MessageFilter; onChange: (filter: MessageFilter) => void }) {
  return (
    <fieldset className="cycle-tabs" aria-label="Show messages">
      {MESSAGE_FILTERS.map((f) => (
        <button key={f} type="button" className="cycle-tabs__tab" aria-pressed={value === f} onClick={() => onChange(f)}>
          {FILTER_LABEL[f]}
        </button>
      ))}
    </fieldset>
  );
}

const EMPTY: Record<MessageFilter, { title: string; body: string }> = {
  all: { title: 'No messages yet.', body: 'Write a message, choose who receives it, and decide when and how it is delivered.' },
  pending: { title: 'No pending messages.', body: 'Messages that have not been delivered yet are listed here.' },
  sent: { title: 'No sent messages.', body: 'Messages that have been delivered to their recipients are listed here.' },
};

interface MessageListProps {
  /** Loaded: the page shows the loading and error states (components/query-state.tsx). */
  messages: readonly MessageView[];
  filter: MessageFilter;
}

/** My Messages: each message with its deliver_at, status and a View button, newest first. */
export function MessageList({ messages, filter }: MessageListProps) {
  const shown = messages.filter((m) => matchesFilter(m, filter));
  if (!shown.length) {
    const empty = EMPTY[filter];
    return (
      <EmptyState
        title={empty.title}
        action={
          filter === 'all' ? (
            <Link to="/app/create" className={buttonClass('primary')}>
              Create Message
            </Link>
          ) : undefined
        }
      >
        <p>{empty.body}</p>
      </EmptyState>
    );
  }
  return (
    <ul className="message-list">
      {shown.map((m) => (
        <MessageItem key={m.id} message={m} />
      ))}
    </ul>
  );
}

function MessageItem({ message }: { message: MessageView }) {
  const title = excerpt(message);
  return (
    <li className="message-item">
      <div className="message-item__head">
        <h3 className="message-item__title">{title}</h3>
        <StatusBadge message={message} />
        {message.paused ? <Badge tone="grace">{PAUSED_LABEL}</Badge> : null}
      </div>
      <dl className="facts">
        <div>
          <dt>To</dt>
          <dd>{message.recipient_user_id ? <Email value={recipientLabel(message)} /> : LEFT_RECIPIENT}</dd>
        </div>
        <div>
          <dt>Deliver at</dt>
          <dd>
            <DeliverAt message={message} />
          </dd>
        </div>
        <div>
          <dt>Method</dt>
          <dd>{METHOD_LABEL[message.delivery_method]}</dd>
        </div>
        <div>
          <dt>Delivered</dt>
          <dd>{message.delivered ? 'Yes' : 'Not yet'}</dd>
        </div>
      </dl>
      <Link to="/app/messages/view/$id" params={{ id: message.id }} className={buttonClass('secondary')}>
        View<span className="visually-hidden"> message: {title}</span>
      </Link>
    </li>
  );
}

/**
 * My Messages lists each message with its deliver_at (docs/product.md "Messages and release rules"). A message
 * with rules is not sent at that time (it is only its earliest moment, often its creation), so it says what it
 * waits for instead of looking overdue.
 */
function DeliverAt({ message }: { message: MessageView }) {
  if (message.released_at) return <Time value={message.released_at} />;
  if (message.status === 'armed' && message.cancel_deadline) {
    return (
      <>
        <Time value={message.cancel_deadline} show="both" /> unless you check in
      </>
    );
  }
  if (message.rules.length === 0 || message.status === 'cancelled') return <Time value={message.deliver_at} />;
  const waitsFor = message.rules.map((r, i) => (i === 0 ? describeRule(r) : lowerFirst(describeRule(r)))).join(', or ');
  if (Date.parse(message.deliver_at) <= Date.now()) return <>{waitsFor}</>;
  return (
    <>
      {waitsFor}; not before <Time value={message.deliver_at} />
    </>
  );
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
