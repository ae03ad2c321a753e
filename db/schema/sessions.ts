import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/** A bearer session. Only the SHA-256 of the token is stored; revocation is a timestamp, not a delete. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    revoked_at: integer('revoked_at', { mode: 'timestamp_ms' }),
    /** How the session was opened: password or google. */
    method: text('method', { enum: ['password', 'google', 'passkey'] }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.user_id), index('sessions_expires_idx').on(t.expires_at)],
);

export type Session = typeof sessions.$inferSelect;
