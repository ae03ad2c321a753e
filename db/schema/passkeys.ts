import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * A WebAuthn credential (a passkey) of a user (worker/src/domains/passkeys/): it signs in and checks in with
 * a touch or a glance, which no script holding a session can do. Only the public key is stored.
 */
export const passkeys = sqliteTable(
  'passkeys',
  {
    /** The credential id, base64url, as the authenticator made it. */
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** COSE public key, base64url. */
    public_key: text('public_key').notNull(),
    /** The signature counter last seen (0 for authenticators that keep none). */
    counter: integer('counter').notNull().default(0),
    transports: text('transports', { mode: 'json' }).$type<string[]>().notNull(),
    /** What the owner calls it ("Phone", "Laptop"). */
    name: text('name').notNull(),
    backed_up: integer('backed_up', { mode: 'boolean' }).notNull().default(false),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    last_used_at: integer('last_used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('passkeys_user_idx').on(t.user_id)],
);

/**
 * A WebAuthn challenge handed out and not yet answered: used once (deleted as it is answered) and only for
 * five minutes. `user_id` is null for a sign-in, where the passkey names its user.
 */
export const webauthnChallenges = sqliteTable(
  'webauthn_challenges',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['register', 'sign-in', 'check-in'] }).notNull(),
    challenge: text('challenge').notNull(),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expires_at)],
);
