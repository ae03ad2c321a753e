import { schema } from '@afterword/db';
import type { Message } from '@afterword/db/schema';
import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { ReceivedMessage, ReleaseReason, UnreadCount } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { messageNotFound } from './message-errors';

/*
 * The recipient's side of a message: their Inbox, one received message, and its read marker. A
 * recipient sees who it is from, when and why it reached them, and its content; never the sender's
 * rules, channel, delivery log or state history (docs/decisions/recipient-view.md).
 */

const LIST_LIMIT = 500;

interface ReceivedRow {
  message: Message;
  senderEmail: string;
  senderName: string;
  releaseCause: string | null;
}

/** The message's release transition: there is at most one (each release is a compare-and-set). */
const releaseTransition = and(eq(schema.messageTransitions.message_id, schema.messages.id), eq(schema.messageTransitions.to_status, 'releasing'));

function receivedQuery(ctx: ServiceContext) {
  return ctx.db
    .select({
      message: schema.messages,
      senderEmail: schema.users.email,
      senderName: schema.users.display_name,
      releaseCause: schema.messageTransitions.cause,
    })
    .from(schema.messages)
    .innerJoin(schema.users, eq(schema.users.id, schema.messages.sender_id))
    .leftJoin(schema.messageTransitions, releaseTransition);
}

/** Released and addressed to the caller: the only messages a recipient can see at all. */
const receivedBy = (userId: string) => and(eq(schema.messages.recipient_user_id, userId), isNotNull(schema.messages.released_at));

/**
 * Why it was released. A rule's release comes at the end of its cancel window (`window_ended`): the
 * rule is the one that fired last. A message released before this column of causes existed reads as
 * its delivery time.
 */
export function releaseReasonOf(message: Pick<Message, 'rules'>, cause: string | null): ReleaseReason {
  if (cause === 'manual') return { kind: 'by_sender', count: null };
  if (cause === 'window_ended') {
    const fired = message.rules.filter((r) => r.fired_at != null).sort((a, b) => (b.fired_at ?? 0) - (a.fired_at ?? 0))[0];
    if (fired) {
      const counted = fired.trigger_type === 'missed_checkins' || fired.trigger_type === 'delay_after_death';
      return { kind: fired.trigger_type, count: counted ? Number(fired.trigger_value) : null };
    }
  }
  return { kind: 'deliver_at', count: null };
}

function toReceived({ message: m, senderEmail, senderName, releaseCause }: ReceivedRow): ReceivedMessage {
  return {
    id: m.id,
    sender: { id: m.sender_id, email: senderEmail, name: senderName.trim() || null },
    content: m.content,
    content_encrypted: m.content_encrypted,
    use_e2ee: m.use_e2ee,
    has_audio: m.audio_key != null,
    audio_type: m.audio_type,
    // receivedBy() guarantees a release time.
    released_at: (m.released_at ?? m.created_at).toISOString(),
    read_at: m.read_at ? m.read_at.toISOString() : null,
    release_reason: releaseReasonOf(m, releaseCause),
  };
}

/** GET /api/message/inbox: released messages addressed to the caller, newest release first. */
export async function inboxMessages(ctx: ServiceContext, userId: string): Promise<ReceivedMessage[]> {
  const rows = await receivedQuery(ctx).where(receivedBy(userId)).orderBy(desc(schema.messages.released_at)).limit(LIST_LIMIT);
  return rows.map(toReceived);
}

/** One received message; anything not released to the caller is 404, as if it did not exist. */
export async function getReceivedMessage(ctx: ServiceContext, userId: string, id: string): Promise<ReceivedMessage> {
  const [row] = await receivedQuery(ctx)
    .where(and(eq(schema.messages.id, id), receivedBy(userId)))
    .limit(1);
  if (!row) throw messageNotFound();
  return toReceived(row);
}

/** POST /api/message/{id}/read: the recipient opened it. The first opening is kept; repeating changes nothing. */
export async function markMessageRead(ctx: ServiceContext, userId: string, id: string): Promise<ReceivedMessage> {
  await ctx.db
    .update(schema.messages)
    .set({ read_at: ctx.now() })
    .where(and(eq(schema.messages.id, id), receivedBy(userId), isNull(schema.messages.read_at)));
  return getReceivedMessage(ctx, userId, id);
}

/** GET /api/message/unread-count: the Inbox sidebar entry's number. */
export async function unreadCount(ctx: ServiceContext, userId: string): Promise<UnreadCount> {
  const [row] = await ctx.db
    .select({ unread: count() })
    .from(schema.messages)
    .where(and(receivedBy(userId), isNull(schema.messages.read_at)));
  return { unread: row?.unread ?? 0 };
}
