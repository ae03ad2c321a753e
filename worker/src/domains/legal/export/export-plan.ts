/*
 * What GET /api/legal/export takes from each table (docs/decisions/data-export.md). Every table of the drizzle schema
 * is either exported here — the rows keyed to the user, through whichever column keys them — or listed in
 * NOT_EXPORTED with the reason; worker/test/legal-export.test.ts enumerates the schema and fails for a
 * table in neither, so a new table cannot be forgotten. `?1` is the user's id. Secret columns (password,
 * session, key and token hashes, signing secrets) are never exported: `omit` drops them.
 */

import { effectiveDeadlineSql } from '@afterword/db/schema';

export interface TableExport {
  /** The SQL table name. */
  table: string;
  /** The archive's file (`data/<file>.json`). */
  file: string;
  /** The rows that are the user's, as SQL after WHERE (`?1` = the user's id). */
  where: string;
  /** Columns never exported: secrets, and the sender's own bookkeeping on a copy received. */
  omit?: readonly string[];
  /**
   * A table stored WITHOUT ROWID has no rowid to page by: its primary key's columns, in the key's order
   * (worker/test/legal-export.test.ts checks this against the database).
   */
  key?: readonly string[];
  /**
   * Columns exported as they stand rather than as stored: the column's name and an SQL expression over the row (the
   * table is named `t`). For a value the app shows worked out from others, so the archive says what the person saw.
   */
  asItStands?: Readonly<Record<string, string>>;
}

const SENT = 'SELECT id FROM messages WHERE sender_id = ?1';
const RECEIVED = 'SELECT id FROM messages WHERE recipient_user_id = ?1 AND released_at IS NOT NULL';
const MY_GUARDIANSHIPS = 'SELECT id FROM guardians WHERE guardian_user_id = ?1';

export const EXPORTS: readonly TableExport[] = [
  { table: 'users', file: 'account', where: 'id = ?1', omit: ['password_hash'] },
  { table: 'sessions', file: 'sessions', where: 'user_id = ?1', omit: ['token_hash'] },
  { table: 'passkeys', file: 'passkeys', where: 'user_id = ?1' },
  // Passkey challenges not answered yet (five minutes at most).
  { table: 'webauthn_challenges', file: 'passkey_challenges', where: 'user_id = ?1' },
  { table: 'password_reset_tokens', file: 'password_resets', where: 'user_id = ?1', omit: ['token_hash'] },
  { table: 'user_keys', file: 'encryption_keys', where: 'user_id = ?1' },
  { table: 'canaries', file: 'canaries', where: 'user_id = ?1', omit: ['token_hash'] },
  // "Test everything": the plans and what each TEST copy reached.
  { table: 'rehearsals', file: 'rehearsals', where: 'user_id = ?1' },
  // Through the owner's canaries, which their events go with (db/migrations/0041_transitions_go_with_their_canary.sql).
  {
    table: 'canary_transitions',
    file: 'canary_history',
    where: 'canary_id IN (SELECT id FROM canaries WHERE user_id = ?1)',
    key: ['canary_id', 'cycle_deadline', 'kind', 'misses'],
  },
  // Through the owner's canaries: the links' own user_id has no index (db/migrations/0039_deletions_follow_indexes.sql).
  {
    table: 'check_in_links',
    file: 'check_in_links',
    where: 'canary_id IN (SELECT id FROM canaries WHERE user_id = ?1)',
    omit: ['token_hash'],
    key: ['token_hash'],
  },
  { table: 'activity', file: 'activity', where: 'user_id = ?1', key: ['user_id', 'created_at', 'id'] },
  // The deadline as the app shows it: check-ins move it without writing the stored one (docs/decisions/deadman-deadline.md).
  { table: 'deadman_switches', file: 'deadman_switch', where: 'user_id = ?1', asItStands: { deadline: effectiveDeadlineSql('t') } },
  { table: 'scheduled_deletions', file: 'scheduled_deletions', where: 'user_id = ?1' },
  { table: 'account_inactivity', file: 'inactivity', where: 'user_id = ?1' },
  { table: 'deadman_heirs', file: 'heirs', where: 'owner_id = ?1' },
  // Copies others left this user: their own records (the files are under files/legacy/).
  {
    table: 'legacy_copies',
    file: 'legacy_copies_received',
    where: "recipient_user_id = ?1 AND status = 'ready' AND deletion_id IN (SELECT id FROM scheduled_deletions WHERE status = 'done')",
  },
  { table: 'messages', file: 'messages_sent', where: 'sender_id = ?1' },
  // What others sent this user, once released to them: their copy, without the sender's rules.
  {
    table: 'messages',
    file: 'messages_received',
    where: 'recipient_user_id = ?1 AND released_at IS NOT NULL',
    omit: ['rules', 'armed_at', 'cancel_deadline', 'timer_due_at', 'version', 'vault_item_id'],
  },
  { table: 'message_transitions', file: 'message_history', where: `message_id IN (${SENT})` },
  { table: 'deliveries', file: 'message_deliveries', where: `message_id IN (${SENT})`, omit: ['lease_until'] },
  { table: 'delivery_log', file: 'delivery_log', where: `message_id IN (${SENT}) OR message_id IN (${RECEIVED})` },
  { table: 'message_attachments', file: 'attachments', where: `owner_id = ?1 OR message_id IN (${RECEIVED})` },
  { table: 'vault_assets', file: 'vault_files', where: 'owner_id = ?1' },
  { table: 'vault_items', file: 'vault_items', where: 'owner_id = ?1' },
  { table: 'user_consents', file: 'consents', where: 'user_id = ?1' },
  { table: 'consent_changes', file: 'consent_history', where: 'user_id = ?1' },
  { table: 'notification_preferences', file: 'notification_preferences', where: 'user_id = ?1' },
  { table: 'push_subscriptions', file: 'push_devices', where: 'user_id = ?1', omit: ['auth'] },
  { table: 'phone_verifications', file: 'phone_verifications', where: 'user_id = ?1', omit: ['code_hash'] },
  { table: 'owner_notices', file: 'notices', where: 'user_id = ?1', key: ['id'] },
  // Through the owner's notices: the deliveries' own user_id has no index (db/migrations/0040_owner_notices_by_key.sql).
  {
    table: 'owner_notice_deliveries',
    file: 'notice_deliveries',
    where: 'notice_id IN (SELECT id FROM owner_notices WHERE user_id = ?1)',
    key: ['notice_id', 'at', 'id'],
  },
  { table: 'outbox_messages', file: 'outbox', where: 'recipient_user_id = ?1' },
  { table: 'api_keys', file: 'api_keys', where: 'user_id = ?1', omit: ['key_hash'] },
  { table: 'api_usage', file: 'api_usage', where: 'user_id = ?1' },
  { table: 'webhooks', file: 'webhooks', where: 'user_id = ?1', omit: ['secret_encrypted'] },
  { table: 'webhook_deliveries', file: 'webhook_deliveries', where: 'webhook_id IN (SELECT id FROM webhooks WHERE user_id = ?1)', omit: ['lease_until'] },
  { table: 'webhook_attempts', file: 'webhook_attempts', where: 'webhook_id IN (SELECT id FROM webhooks WHERE user_id = ?1)' },
  { table: 'guardians', file: 'guardians', where: 'owner_id = ?1', omit: ['invite_token_hash'] },
  // Where this user guards others: their guardianships, their own votes, holds and notices.
  { table: 'guardians', file: 'guardianships', where: 'guardian_user_id = ?1', omit: ['invite_token_hash'] },
  { table: 'guardian_settings', file: 'guardian_settings', where: 'owner_id = ?1' },
  { table: 'death_reports', file: 'death_reports', where: 'owner_id = ?1' },
  {
    table: 'death_report_votes',
    file: 'death_report_votes',
    where: `report_id IN (SELECT id FROM death_reports WHERE owner_id = ?1) OR guardian_id IN (${MY_GUARDIANSHIPS})`,
  },
  { table: 'guardian_holds', file: 'guardian_holds', where: `owner_id = ?1 OR guardian_id IN (${MY_GUARDIANSHIPS})` },
  { table: 'ladder_transitions', file: 'ladder_history', where: 'owner_id = ?1' },
  { table: 'guardian_notices', file: 'guardian_notices', where: `owner_id = ?1 OR guardian_id IN (${MY_GUARDIANSHIPS})` },
  // Contacts: the invitations this user sent, and the ones they accepted (the other side's row).
  { table: 'voice_samples', file: 'voice_samples', where: 'owner_id = ?1' },
  { table: 'voice_profiles', file: 'voice_profile', where: 'user_id = ?1' },
  { table: 'persona_profiles', file: 'persona', where: 'user_id = ?1' },
  { table: 'voice_prompts', file: 'messages_from_the_beyond', where: 'owner_id = ?1' },
  // Chat imports (docs/decisions/chat-import.md): what was read from each upload, and the lines kept.
  { table: 'chat_imports', file: 'chat_imports', where: 'owner_id = ?1', omit: ['r2_key'] },
  { table: 'persona_chat_lines', file: 'persona_chat_lines', where: 'owner_id = ?1' },
  // Persona access: whom this user chose (and whether they retired it), and the personas they were chosen for.
  { table: 'persona_recipients', file: 'persona_recipients', where: 'owner_id = ?1 OR recipient_user_id = ?1' },
  { table: 'persona_settings', file: 'persona_settings', where: 'owner_id = ?1 OR keeper_user_id = ?1' },
  { table: 'persona_chat_sessions', file: 'persona_chat_sessions', where: 'owner_id = ?1 OR user_id = ?1' },
  { table: 'contacts', file: 'contacts', where: "owner_id = ?1 OR (contact_user_id = ?1 AND status = 'accepted')", omit: ['invite_token_hash'] },
  // Community (docs/decisions/community.md): capsules the user wrote — anonymous ones too, to their own
  // author — memorials they made, their posts and the candles they lit. Never another author's.
  { table: 'capsules', file: 'capsules', where: 'author_id = ?1' },
  { table: 'capsule_items', file: 'capsule_items', where: 'capsule_id IN (SELECT id FROM capsules WHERE author_id = ?1)' },
  { table: 'memorials', file: 'memorials', where: 'created_by = ?1' },
  { table: 'memorial_posts', file: 'memorial_posts', where: 'author_id = ?1' },
  { table: 'memorial_candles', file: 'memorial_candles', where: 'user_id = ?1' },
  { table: 'memorial_wishes', file: 'memorial_wish', where: 'user_id = ?1' },
  { table: 'community_reports', file: 'reports_made', where: 'reporter_id = ?1' },
  // Billing (docs/decisions/billing.md): the plan bought, the checkouts opened and the provider events applied.
  { table: 'billing_accounts', file: 'billing', where: 'user_id = ?1' },
  { table: 'checkout_sessions', file: 'checkouts', where: 'user_id = ?1' },
  { table: 'billing_events', file: 'billing_events', where: 'user_id = ?1' },
];

/** Tables that hold nothing of one user's, or only what must not leave: the reason for each. */
export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  rate_limits: 'abuse-prevention counters keyed by a hashed address or email, gone within the hour they count',
  app_settings: "the deployment's own settings (e.g. its VAPID key pair), no one user's data",
};
