import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * An account. `id` is a UUID: recipients are addressed by it (docs/product.md "Messages and release rules",
 * Recipient User ID).
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Trimmed and lower-cased before it is stored (docs/server-rules.md "Accounts, sessions and errors"). */
    email: text('email').notNull().unique(),
    /** `scrypt$N$r$p$salt$hash` (see docs/decisions/password-hashing.md); null for Google-only accounts. */
    password_hash: text('password_hash'),
    data_policy_region: text('data_policy_region', { enum: ['US-HIPAA', 'EU-GDPR', 'INTL-General'] }).notNull(),
    legal_jurisdiction: text('legal_jurisdiction'),
    plan: text('plan', { enum: ['free', 'plus', 'pro', 'immortality'] })
      .notNull()
      .default('free'),
    /** Google's stable subject id, set when the account signs in with Google. */
    google_sub: text('google_sub').unique(),
    /** Profile: what channels and notices need. */
    display_name: text('display_name').notNull().default(''),
    /** IANA zone; quiet hours are read in it. */
    time_zone: text('time_zone').notNull().default('UTC'),
    /** E.164, set only once verified by a one-time code over SMS. */
    phone_e164: text('phone_e164'),
    phone_verified_at: integer('phone_verified_at', { mode: 'timestamp_ms' }),
    /** Set only through setDeathConfirmed (the guardian capability): fires delay_after_death rules. */
    death_confirmed_at: integer('death_confirmed_at', { mode: 'timestamp_ms' }),
    /** The last sign-in (a session opened): with check-ins, what the inactivity policy counts. */
    last_sign_in_at: integer('last_sign_in_at', { mode: 'timestamp_ms' }),
    /** Set while the account is archived by the inactivity policy: read-only until the user signs in. */
    archived_at: integer('archived_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull().default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index('users_created_at_idx').on(t.created_at)],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
