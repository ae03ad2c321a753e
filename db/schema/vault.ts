import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { VAULT_CONDITION_TYPES } from './enums';
import { users } from './users';

export { VAULT_CONDITION_TYPES };

/*
 * The vault (docs/decisions/vault.md): a file encrypted in the owner's browser, stored once in R2, and
 * the item that gives it to one recipient under a condition. Releasing is the release engine's job: each
 * item has a message (messages.vault_item_id) carrying the file as its attachment, so the states, causes,
 * delivery log, notices and the recipient's Inbox are the messages' own.
 */

/**
 * An uploaded file: ciphertext in R2 under `r2_key`, its IV, and the v1 envelope sealing its key for
 * the owner and the recipient (the server cannot open it). Counted against the owner's storage once.
 */
export const vaultAssets = sqliteTable(
  'vault_assets',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    r2_key: text('r2_key').notNull(),
    iv: text('iv').notNull(),
    envelope: text('envelope').notNull(),
    name: text('name').notNull(),
    /** Ciphertext bytes (plaintext + the 16-byte tag). */
    size: integer('size').notNull(),
    legal_note: text('legal_note'),
    consent_at: integer('consent_at', { mode: 'timestamp_ms' }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('vault_assets_owner_idx').on(t.owner_id, t.created_at)],
);

/**
 * One asset given to one recipient under a condition. `condition_value`: `MM-DD` (birthday: the year is
 * never stored), the ISO instant (exact date), null (death flag). `claim_token` names the item in its
 * QR code's claim link: a locator that shows nothing of the content (the page asks the visitor to sign
 * in), not a credential, so it is stored as is and the owner can show the code again.
 */
export const vaultItems = sqliteTable(
  'vault_items',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    asset_id: text('asset_id')
      .notNull()
      .references(() => vaultAssets.id, { onDelete: 'cascade' }),
    recipient_user_id: text('recipient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    condition_type: text('condition_type', { enum: VAULT_CONDITION_TYPES }).notNull(),
    condition_value: text('condition_value'),
    /** Birthday items: again on every birthday after the first (opt-in). */
    every_year: integer('every_year', { mode: 'boolean' }).notNull().default(false),
    legal_note: text('legal_note'),
    claim_token: text('claim_token').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('vault_items_asset').on(t.asset_id),
    uniqueIndex('vault_items_claim_token').on(t.claim_token),
    index('vault_items_owner_idx').on(t.owner_id, t.created_at),
    index('vault_items_recipient_idx').on(t.recipient_user_id),
  ],
);

export type VaultAsset = typeof vaultAssets.$inferSelect;
export type VaultItem = typeof vaultItems.$inferSelect;
