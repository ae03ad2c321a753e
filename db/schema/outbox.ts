import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The local default of every channel (docs/server-rules.md "Channels and notifications"): what would have been
 * sent, stored instead of sent, and shown on the running app's outbox page so a newcomer sees exactly what
 * leaves the system. One row per delivery: `idempotency_key` (message + channel + address) makes a redelivered
 * job a no-op. Each account reads only the rows addressed to it (docs/decisions/local-outbox.md).
 */
export const outboxMessages = sqliteTable(
  'outbox_messages',
  {
    id: text('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'sms', 'call', 'push'] }).notNull(),
    /** The address as the real channel would use it: an email, an E.164 number, a push endpoint. */
    address: text('address').notNull(),
    /**
     * The account the sender meant this delivery for, recorded at send time: the only rows its owner's
     * outbox lists. Null when no account is known (then only the operator view shows it). No foreign
     * key: drizzle-kit's ALTER TABLE for SQLite drops ON DELETE, and a bare reference would make account
     * deletion fail, so deleteAccount clears these rows itself.
     */
    recipient_user_id: text('recipient_user_id'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    link: text('link'),
    idempotency_key: text('idempotency_key').notNull().unique(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('outbox_created_idx').on(t.created_at), index('outbox_recipient_created_idx').on(t.recipient_user_id, t.created_at)],
);
