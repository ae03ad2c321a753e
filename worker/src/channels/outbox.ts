import { schema } from '@afterword/db';
import { desc, eq } from 'drizzle-orm';
import type { OutboxMessage } from '../contracts/outbox';
import type { ServiceContext } from '../env';
import type { AddressedMessage, ChannelKind, DeliveryResult } from './types';

/**
 * The outbox adapter: the local default for every channel. It stores the delivery instead of sending
 * it, so `npm start` shows what would have gone out (an /app/outbox page reads `listOutbox`). It
 * behaves like a provider that accepts at once; the idempotency key makes a repeated job a no-op that
 * answers with the first delivery's id, as providers with idempotency keys do, and when it was accepted (a
 * warning reached its owner then, not at the repeat: send-owner-notice.ts). The row keeps the account
 * it is for: a local install is a shared mailbox server, and each account may read only its own mail.
 */
export async function deliverToOutbox(ctx: ServiceContext, channel: ChannelKind, address: string, message: AddressedMessage): Promise<DeliveryResult> {
  const id = crypto.randomUUID();
  // An account's mailbox exists while the account does: the insert itself checks, so a delivery in flight
  // while the account is erased cannot leave a row naming a deleted user behind it.
  const row = await ctx.env.DB.prepare(
    `INSERT INTO outbox_messages (id, channel, address, recipient_user_id, subject, text, link, idempotency_key, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE ?4 IS NULL OR EXISTS (SELECT 1 FROM users WHERE id = ?4)
     ON CONFLICT (idempotency_key) DO UPDATE SET idempotency_key = excluded.idempotency_key
     RETURNING id, created_at`,
  )
    .bind(
      id,
      channel,
      address,
      message.recipientUserId ?? null,
      message.subject,
      message.text,
      message.link ?? null,
      message.idempotencyKey,
      ctx.now().getTime(),
    )
    .first<{ id: string; created_at: number }>();
  if (!row) return { ok: false, retryable: false, error: 'The recipient no longer has an Afterword account.' };
  return { ok: true, providerId: `outbox:${row.id}`, ...(row.id === id ? {} : { acceptedAt: row.created_at }) };
}

/**
 * Who reads the outbox: one account, which sees only the rows addressed to it, or the operator, who sees
 * every row (only behind OUTBOX_OPERATOR_VIEW, domains/outbox/outbox-access.ts). There is no default,
 * so no caller can list every row by leaving the reader out.
 */
export type OutboxReader = { userId: string } | { operator: true };

/** Newest first: what the local outbox page shows to `reader`. */
export async function listOutbox(ctx: ServiceContext, reader: OutboxReader, limit = 100): Promise<OutboxMessage[]> {
  const t = schema.outboxMessages;
  const rows = await ctx.db
    .select()
    .from(t)
    // A row without a recipient (null) never equals an account id: only the operator sees it.
    .where('userId' in reader ? eq(t.recipient_user_id, reader.userId) : undefined)
    .orderBy(desc(t.created_at))
    .limit(Math.min(Math.max(limit, 1), 500));
  // Field by field, not `...r`: a column added to the table is not answered until the contract says so.
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    address: r.address,
    recipient_user_id: r.recipient_user_id,
    subject: r.subject,
    text: r.text,
    link: r.link,
    idempotency_key: r.idempotency_key,
    created_at: r.created_at.toISOString(),
  }));
}
