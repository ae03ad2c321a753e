import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { CONSENT_KINDS } from './enums';
import { users } from './users';

export { CONSENT_KINDS };

/*
 * Consents per kind of processing (docs/decisions/data-rights.md). Signing up and every create call
 * already take `consent: true`, so a kind is granted until the user withdraws it: a row exists only once
 * a kind was changed, and no row means granted. Every change is also appended to `consent_changes`.
 */

export type ConsentKind = (typeof CONSENT_KINDS)[number];

/** The current state of one kind for one user (absent: granted since sign-up, never changed). */
export const userConsents = sqliteTable(
  'user_consents',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CONSENT_KINDS }).notNull(),
    granted: integer('granted', { mode: 'boolean' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.kind] })],
);

/** Append-only history: one row per change (time, kind, old, new). Never updated. */
export const consentChanges = sqliteTable(
  'consent_changes',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: CONSENT_KINDS }).notNull(),
    old_granted: integer('old_granted', { mode: 'boolean' }).notNull(),
    new_granted: integer('new_granted', { mode: 'boolean' }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('consent_changes_user_idx').on(t.user_id, t.created_at)],
);

export type UserConsent = typeof userConsents.$inferSelect;
export type ConsentChange = typeof consentChanges.$inferSelect;
