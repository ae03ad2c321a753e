import { schema } from '@afterword/db';
import type { Message } from '@afterword/db/schema';
import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { ServiceContext } from '../../../env';

export interface EngineMessage {
  message: Message;
  deathConfirmedAt: Date | null;
  /** How notices name the recipient: display name, else email. */
  recipientLabel: string;
  /** The sender withdrew their messages consent: nothing arms or releases it until they allow it again. */
  paused: boolean;
}

const recipient = alias(schema.users, 'recipient');

/** The message with what the engine needs about its sender and recipient, in one query. */
export async function loadEngineMessage(ctx: ServiceContext, messageId: string): Promise<EngineMessage | null> {
  const [row] = await ctx.db
    .select({
      message: schema.messages,
      deathConfirmedAt: schema.users.death_confirmed_at,
      recipientName: recipient.display_name,
      recipientEmail: recipient.email,
      messagesConsent: schema.userConsents.granted,
    })
    .from(schema.messages)
    .innerJoin(schema.users, eq(schema.users.id, schema.messages.sender_id))
    .innerJoin(recipient, eq(recipient.id, schema.messages.recipient_user_id))
    .leftJoin(schema.userConsents, and(eq(schema.userConsents.user_id, schema.messages.sender_id), eq(schema.userConsents.kind, 'messages')))
    .where(eq(schema.messages.id, messageId))
    .limit(1);
  if (!row) return null;
  return {
    message: row.message,
    deathConfirmedAt: row.deathConfirmedAt,
    recipientLabel: row.recipientName.trim() || row.recipientEmail,
    paused: row.messagesConsent === false,
  };
}
