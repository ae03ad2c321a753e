import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * A developer API key (docs/decisions/api-keys.md). The key itself is shown once and
 * never stored: only its SHA-256 (`key_hash`) and a short display `prefix` (`afw_live_AbCd`).
 * Revocation is a timestamp; a revoked key answers 401 at once.
 */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    client_name: text('client_name').notNull(),
    /** SHA-256 hex of the whole key. */
    key_hash: text('key_hash').notNull().unique(),
    /** `afw_live_` / `afw_test_` and the first four random characters: enough to recognise a key. */
    prefix: text('prefix').notNull(),
    /** JSON array of API scopes (worker/src/openapi/route-doc.ts API_SCOPES); read in SQL with json_each. */
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    /** `afw_test_` keys: act on the caller's data but never trigger real deliveries. */
    sandbox: integer('sandbox', { mode: 'boolean' }).notNull().default(false),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    revoked_at: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('api_keys_user_idx').on(t.user_id)],
);

export type ApiKey = typeof apiKeys.$inferSelect;

/**
 * Accepted API-key calls per key and UTC month ('YYYY-MM'), with the last one's time. One row write per
 * call is the whole metering cost: the user's monthly quota (docs/product.md "Plans and billing") is the sum of
 * their keys' rows for the month, a key's `usage_count` the sum of its rows, `last_used_at` the latest.
 */
export const apiUsage = sqliteTable(
  'api_usage',
  {
    key_id: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    count: integer('count').notNull().default(0),
    last_used_at: integer('last_used_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key_id, t.month] }), index('api_usage_user_month_idx').on(t.user_id, t.month)],
);
