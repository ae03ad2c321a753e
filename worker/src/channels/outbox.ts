import { schema } from '@afterword/db';
import { desc } from 'drizzle-orm';
import type { ServiceContext } from '../env';
import type { ChannelKind, DeliveryResult, OutgoingMessage } from './types';

/**
 * The outbox adapter: the local default for every channel. It stores the delivery instead of sending
 * it, so `npm start` shows what would have gone out (an /app/outbox page reads `listOutbox`). It
 * behaves like a provider that accepts at once; the idempotency key makes a repeated job a no-op that
 * answers with the first delivery's id, as providers with idempotency keys do.
 */
export async function deliverToOutbox(
  ctx: ServiceContext,
  channel: ChannelKind,
  address: string,
  message: OutgoingMessage,
): Promise<DeliveryResult> {
  const id = crypto.randomUUID();
  const [row] = await ctx.db
    .insert(schema.outboxMessages)
    .values({
      id,
      channel,
      address,
      subject: message.subject,
      text: message.text,
      link: message.link ?? null,
      idempotency_key: message.idempotencyKey,
      created_at: ctx.now(),
    })
    .onConflictDoUpdate({ target: schema.outboxMessages.idempotency_key, set: { idempotency_key: message.idempotencyKey } })
    .returning({ id: schema.outboxMessages.id });
  return { ok: true, providerId: `outbox:${row?.id ?? id}` };
}

/** Newest first: what the local outbox page shows. */
export async function listOutbox(ctx: ServiceContext, limit = 100) {
  const rows = await ctx.db.select().from(schema.outboxMessages).orderBy(desc(schema.outboxMessages.created_at)).limit(Math.min(Math.max(limit, 1), 500));
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}
