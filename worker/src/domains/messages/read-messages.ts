import { schema } from '@afterword/db';
import type { Message } from '@afterword/db/schema';
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { DeliveryLogEntry, MessageDetail, MessageFilter, MessageView, SenderMessageDetail } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { areAcceptedContacts } from '../contacts/contact-records';
import { hasConsent } from '../legal/consent-state';
import { messageNotFound } from './message-errors';
import { toMessageView, toTransitionView } from './message-view';
import { getReceivedMessage } from './received-messages';

const recipient = alias(schema.users, 'recipient');
/**
 * The recipient's email as the sender may see it: only when the two are accepted contacts (or the same
 * person). A message can be addressed by bare user id, and an id must not turn into an address.
 */
const recipientEmailForSender = (recipientUser: typeof recipient | typeof schema.users) =>
  sql<string | null>`CASE WHEN ${areAcceptedContacts(schema.messages.sender_id, recipientUser.id)} THEN ${recipientUser.email} END`;

export { messageNotFound };
const LIST_LIMIT = 500;

/** The caller's own message (as its sender); anyone else's is 404, as if it did not exist. */
export async function loadOwnMessage(ctx: ServiceContext, userId: string, id: string): Promise<Message> {
  const [m] = await ctx.db
    .select()
    .from(schema.messages)
    .where(and(eq(schema.messages.id, id), eq(schema.messages.sender_id, userId)))
    .limit(1);
  if (!m) throw messageNotFound();
  return m;
}

export async function getOwnMessage(ctx: ServiceContext, userId: string, id: string): Promise<MessageView> {
  const message = await loadOwnMessage(ctx, userId, id);
  return toMessageView(message, {}, !(await hasConsent(ctx, userId, 'messages')));
}

/** A message the caller may read: theirs, or addressed to them and released. */
async function loadReadable(
  ctx: ServiceContext,
  userId: string,
  id: string,
): Promise<{ message: Message; role: 'sender' | 'recipient'; senderEmail: string; senderName: string; recipientEmail: string | null }> {
  const [row] = await ctx.db
    .select({
      message: schema.messages,
      senderEmail: schema.users.email,
      senderName: schema.users.display_name,
      recipientEmail: recipientEmailForSender(recipient),
    })
    .from(schema.messages)
    .innerJoin(schema.users, eq(schema.users.id, schema.messages.sender_id))
    // A left join: a message whose recipient left Afterword stays its sender's to read.
    .leftJoin(recipient, eq(recipient.id, schema.messages.recipient_user_id))
    .where(eq(schema.messages.id, id))
    .limit(1);
  if (row?.message.sender_id === userId) return { ...row, role: 'sender' };
  if (row && row.message.recipient_user_id === userId && row.message.released_at) return { ...row, role: 'recipient' };
  throw messageNotFound();
}

/**
 * GET /api/message/{id}: the sender's full record (state history, delivery log), or for its recipient
 * (once released) their copy only — none of the sender's delivery internals.
 */
export async function getMessageDetail(ctx: ServiceContext, userId: string, id: string): Promise<MessageDetail> {
  const { message, role, senderEmail, senderName, recipientEmail } = await loadReadable(ctx, userId, id);
  if (role === 'recipient') return { role, message: await getReceivedMessage(ctx, userId, id) };
  const [transitions, log] = await ctx.db.batch([
    ctx.db.select().from(schema.messageTransitions).where(eq(schema.messageTransitions.message_id, id)).orderBy(asc(schema.messageTransitions.created_at)),
    logQuery(ctx, id),
  ]);
  const paused = !(await hasConsent(ctx, userId, 'messages'));
  const view = toMessageView(
    message,
    { sender_email: senderEmail, sender_name: senderName, ...(recipientEmail ? { recipient_email: recipientEmail } : {}) },
    paused,
  );
  const detail: SenderMessageDetail = { role, message: view, transitions: transitions.map(toTransitionView), log: log.map(toLogEntry) };
  return detail;
}

function logQuery(ctx: ServiceContext, messageId: string) {
  return ctx.db
    .select()
    .from(schema.deliveryLog)
    .where(eq(schema.deliveryLog.message_id, messageId))
    .orderBy(asc(schema.deliveryLog.created_at), asc(schema.deliveryLog.attempt));
}

function toLogEntry(r: typeof schema.deliveryLog.$inferSelect): DeliveryLogEntry {
  return { created_at: r.created_at.toISOString(), channel: r.channel, success: r.success, attempt: r.attempt, ...(r.error ? { error: r.error } : {}) };
}

/** GET /api/notify/logs/{id}: every attempt, for the sender only (a recipient is not shown how it travelled). */
export async function getDeliveryLog(ctx: ServiceContext, userId: string, messageId: string): Promise<DeliveryLogEntry[]> {
  // Ids are stored lower-case; GET /api/notify/logs/{id} passes the path's id as given.
  const message = await loadOwnMessage(ctx, userId, messageId.toLowerCase());
  return (await logQuery(ctx, message.id)).map(toLogEntry);
}

/** My Messages: All, Pending (not delivered = not released) or Sent (released), newest first. */
export async function listMessages(ctx: ServiceContext, userId: string, filter: MessageFilter = 'all'): Promise<MessageView[]> {
  const released = filter === 'pending' ? isNull(schema.messages.released_at) : filter === 'sent' ? isNotNull(schema.messages.released_at) : undefined;
  const rows = await ctx.db
    .select({ message: schema.messages, recipientEmail: recipientEmailForSender(schema.users) })
    .from(schema.messages)
    // A left join: messages to someone who left Afterword are listed too, as undeliverable.
    .leftJoin(schema.users, eq(schema.users.id, schema.messages.recipient_user_id))
    // Vault items are messages too (the release engine's); they are listed on the Vault page.
    .where(and(eq(schema.messages.sender_id, userId), released, isNull(schema.messages.vault_item_id)))
    .orderBy(desc(schema.messages.created_at))
    .limit(LIST_LIMIT);
  const paused = !(await hasConsent(ctx, userId, 'messages'));
  return rows.map((r) => toMessageView(r.message, r.recipientEmail ? { recipient_email: r.recipientEmail } : {}, paused));
}

/** GET /api/message/pending: the caller's messages still waiting for release (scheduled or armed). */
export async function pendingMessages(ctx: ServiceContext, userId: string): Promise<MessageView[]> {
  const rows = await ctx.db
    .select()
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, userId), inArray(schema.messages.status, ['scheduled', 'armed']), isNull(schema.messages.vault_item_id)))
    .orderBy(desc(schema.messages.created_at))
    .limit(LIST_LIMIT);
  const paused = !(await hasConsent(ctx, userId, 'messages'));
  return rows.map((m) => toMessageView(m, {}, paused));
}

/** The message's recording from R2, for its sender or (once released) its recipient. */
export async function getMessageAudio(ctx: ServiceContext, userId: string, id: string): Promise<R2ObjectBody> {
  const { message } = await loadReadable(ctx, userId, id);
  const object = message.audio_key ? await ctx.env.BLOBS.get(message.audio_key) : null;
  if (!object) throw new AppError('NOT_FOUND', 'This message has no recording');
  return object;
}
