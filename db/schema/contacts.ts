import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/*
 * Contacts (docs/decisions/contacts.md): people one may pick by name as a message's
 * recipient or as a guardian instead of typing a user id.
 */

export const CONTACT_STATUSES = ['invited', 'accepted', 'declined'] as const;

/**
 * One invitation from `owner_id` to an email address, and once accepted the link between the two accounts.
 * `invited → accepted | declined`; removing (by either side) deletes the row. An accepted contact is mutual:
 * both accounts list each other. Only the SHA-256 of the 256-bit token is stored, and only until answered.
 */
export const contacts = sqliteTable(
  'contacts',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Trimmed and lower-cased, as typed by the owner. */
    email: text('email').notNull(),
    /** The account that accepted or declined (the token is the proof, its email may differ); null while invited. */
    contact_user_id: text('contact_user_id').references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CONTACT_STATUSES }).notNull(),
    invite_token_hash: text('invite_token_hash').unique(),
    invited_at: integer('invited_at', { mode: 'timestamp_ms' }).notNull(),
    /** When the invitation email was handed to the channel (null until the JOBS consumer sent it). */
    invitation_sent_at: integer('invitation_sent_at', { mode: 'timestamp_ms' }),
    /**
     * When the send of the current token was handed to the JOBS queue (set with the row, and by each resend). An
     * invitation still unsent an hour later — its job never queued, or died — is sent again under a new token by the
     * every-minute cron (domains/contacts/resend-invitations.ts).
     */
    invitation_queued_at: integer('invitation_queued_at', { mode: 'timestamp_ms' }),
    responded_at: integer('responded_at', { mode: 'timestamp_ms' }),
    /**
     * The invitation call's `idempotency_key` and a SHA-256 digest of its input, when it sent one: the same call sent
     * again answers with this invitation instead of "already invited" (docs/decisions/create-retries.md).
     */
    create_key: text('create_key'),
    create_digest: text('create_digest'),
  },
  (t) => [
    // The key is unique per owner in the write itself.
    uniqueIndex('contacts_create_key').on(t.owner_id, t.create_key).where(sql`${t.create_key} IS NOT NULL`),
    uniqueIndex('contacts_live_email').on(t.owner_id, t.email).where(sql`status IN ('invited', 'accepted')`),
    uniqueIndex('contacts_accepted_pair').on(t.owner_id, t.contact_user_id).where(sql`status = 'accepted'`),
    index('contacts_owner_idx').on(t.owner_id, t.status),
    index('contacts_account_idx').on(t.contact_user_id, t.status),
    // The cron's look for invitations no channel took: only unsent ones are in it, so it reads next to nothing.
    index('contacts_unsent').on(t.invitation_queued_at).where(sql`status = 'invited' AND invitation_sent_at IS NULL`),
  ],
);

export type Contact = typeof contacts.$inferSelect;
