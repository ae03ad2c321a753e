import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { LEGACY_PARTS } from './enums';
import { users } from './users';

/**
 * Who receives a copy of chosen parts of the owner's account before their dead-man deletion erases it
 * ("share, then delete": docs/decisions/legacy-copies.md). Goes with either account.
 */
export const deadmanHeirs = sqliteTable(
  'deadman_heirs',
  {
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipient_user_id: text('recipient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** JSON array of LEGACY_PARTS. */
    parts: text('parts', { mode: 'json' }).$type<(typeof LEGACY_PARTS)[number][]>().notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner_id, t.recipient_user_id] }), index('deadman_heirs_recipient_idx').on(t.recipient_user_id)],
);

/**
 * One copy made for one heir: the recipient's from the moment it is written. It names the deletion it
 * came from, never the erased account (the erasure leaves nothing keyed to it), and says from whom in
 * words (`from_label`), as a letter would.
 */
export const legacyCopies = sqliteTable(
  'legacy_copies',
  {
    id: text('id').primaryKey(),
    recipient_user_id: text('recipient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** scheduled_deletions.id: the dead-man deletion that waits for this copy. */
    deletion_id: text('deletion_id').notNull(),
    from_label: text('from_label').notNull(),
    parts: text('parts', { mode: 'json' }).$type<(typeof LEGACY_PARTS)[number][]>().notNull(),
    status: text('status', { enum: ['pending', 'ready'] }).notNull(),
    r2_key: text('r2_key').notNull(),
    size: integer('size'),
    /** When the copy was last handed to the JOBS queue (a lost job is handed over again). */
    queued_at: integer('queued_at', { mode: 'timestamp_ms' }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    ready_at: integer('ready_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('legacy_copies_one_per_heir').on(t.deletion_id, t.recipient_user_id),
    index('legacy_copies_recipient_idx').on(t.recipient_user_id, t.created_at),
    index('legacy_copies_pending_idx').on(t.deletion_id).where(sql`status = 'pending'`),
  ],
);

export type LegacyCopy = typeof legacyCopies.$inferSelect;
