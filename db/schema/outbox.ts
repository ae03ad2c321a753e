import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The local default of every channel (DESIGN section 4): what would have been sent, stored instead of
 * sent, and shown on the running app's outbox page so a newcomer sees exactly what leaves the system.
 * One row per delivery: `idempotency_key` (message + channel + address) makes a redelivered job a no-op.
 */
export const outboxMessages = sqliteTable(
  'outbox_messages',
  {
    id: text('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'sms', 'call', 'push'] }).notNull(),
    /** The address as the real channel would use it: an email, an E.164 number, a push endpoint. */
    address: text('address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    link: text('link'),
    idempotency_key: text('idempotency_key').notNull().unique(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('outbox_created_idx').on(t.created_at)],
);
