import type { ReceivedMessage } from '@afterword/worker/contracts/messages';
import { Link } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { fromLabel } from './release-reason';

const SHOWN = 3;

/** "Ann left you a message" / "Ann left you 2 messages", one line per sender, first released first. */
export function waitingLines(messages: readonly ReceivedMessage[]): { from: string; count: number; firstId: string }[] {
  const bySender = new Map<string, { from: string; count: number; firstId: string }>();
  for (const m of messages) {
    const line = bySender.get(m.sender.id);
    if (line) line.count += 1;
    else bySender.set(m.sender.id, { from: fromLabel(m), count: 1, firstId: m.id });
  }
  return [...bySender.values()];
}

/**
 * The dashboard's word that something is waiting: the unopened messages people left for the user. Shown
 * only when there is one (a recipient with no canary of their own sees this first, not an empty canary).
 */
export function WaitingForYou({ messages }: { messages: readonly ReceivedMessage[] }) {
  const unread = messages.filter((m) => m.read_at === null);
  if (!unread.length) return null;
  const lines = waitingLines(unread);
  return (
    <Card title="Waiting for you">
      <ul className="waiting-list">
        {lines.slice(0, SHOWN).map((line) => (
          <li key={line.firstId}>
            {line.from} left you {line.count === 1 ? 'a message' : `${line.count} messages`}.{' '}
            <Link to="/app/inbox/$id" params={{ id: line.firstId }}>
              {line.count === 1 ? 'Open it' : 'Open the first'}
              <span className="visually-hidden">
                {' '}
                (the {line.count === 1 ? 'message' : 'first message'} from {line.from})
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {lines.length > SHOWN ? (
        <p>
          And more in your <Link to="/app/inbox">Inbox</Link>.
        </p>
      ) : null}
    </Card>
  );
}
