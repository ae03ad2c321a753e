import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { messages } from './messages';
import { users } from './users';

/**
 * The JSON objects of the E2EE formats (worker/src/contracts/e2ee.ts validates them before they are
 * stored). Kept structural here so the schema package needs no worker code.
 */
export type StoredJwk = Record<string, unknown>;
export type StoredWrappedKey = Record<string, unknown>;

/**
 * An account's end-to-end encryption key bundle (docs/server-rules.md "End-to-end encryption"): the public key,
 * and the private key only wrapped — under a password-derived key and under the recovery key. The server can
 * open neither. Created once (PUT /api/keys/me); `password_wrap` changes with the password; the whole bundle is
 * replaced only by a password reset without the recovery key.
 */
export const userKeys = sqliteTable('user_keys', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  public_key: text('public_key', { mode: 'json' }).$type<StoredJwk>().notNull(),
  password_wrap: text('password_wrap', { mode: 'json' }).$type<StoredWrappedKey>().notNull(),
  recovery_wrap: text('recovery_wrap', { mode: 'json' }).$type<StoredWrappedKey>().notNull(),
  /**
   * When the owner said they saved the recovery key of `recovery_wrap` (the tick in its dialog). Null until
   * then, and again after a new recovery key replaces it: while null, the app makes and shows a new one at
   * every password sign-in, so a key lost with a closed tab is never lost for good (docs/security/e2ee.md).
   */
  recovery_saved_at: integer('recovery_saved_at', { mode: 'timestamp_ms' }),
  created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * A file encrypted in the browser (AES-GCM-256, 12-byte IV) and attached to a message. The ciphertext
 * lives in R2 under `r2_key`; the key never reaches the server (it is shown to the sender and sealed in
 * the message's envelope). `iv` is kept as the client sent it (standard or url-safe base64).
 */
export const messageAttachments = sqliteTable(
  'message_attachments',
  {
    id: text('id').primaryKey(),
    message_id: text('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    r2_key: text('r2_key').notNull(),
    iv: text('iv').notNull(),
    name: text('name').notNull(),
    /** Ciphertext bytes (plaintext + 16-byte tag): what counts against the owner's storage. */
    size: integer('size').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('message_attachments_message_idx').on(t.message_id, t.created_at), index('message_attachments_owner_idx').on(t.owner_id)],
);

/**
 * A forgot-password link. Only the SHA-256 of its token is stored; it lasts 30 minutes and is spent by
 * its first successful use (`used_at`). A successful reset also spends the account's other open links.
 */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    used_at: integer('used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.user_id), index('password_reset_tokens_expires_idx').on(t.expires_at)],
);

export type UserKeys = typeof userKeys.$inferSelect;
export type MessageAttachment = typeof messageAttachments.$inferSelect;
export type PasswordResetToken = typeof passwordResetTokens.$inferSelect;
