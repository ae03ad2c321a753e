import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { personLabel } from '../../lib/person-label';
import { cancelBillingOf } from '../billing/end-billing';
import { stopCanaryTimer } from '../canary/canary-timer';
import { stopGuardianClock } from '../guardian/ladder-timer';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { syncReleaseTimer } from '../messages/release/release-timer';
import { appOrigin } from '../../lib/app-origin';
import { forgetClonedVoice } from '../voice/cloned-voice';

/**
 * The one erasure of an account. Tables keyed to the user by a foreign key go with the user row
 * (sessions, canaries, activity, dead-man switch, messages sent with their attachments and history,
 * keys; the guardian ladder: their guardians, settings, death reports with votes, holds, steps and
 * guardian notices); tables kept without one are cleared here, and so are the R2 objects of those
 * messages. Messages others wrote to the user stay with their senders, without a recipient
 * (`ON DELETE SET NULL`): those not released yet are cancelled as undeliverable (cause `recipient_left`,
 * `leaveMessagesUndeliverable`), released ones keep their history; vault files given to the user go with
 * them, messages included. Where the user guards others, the guardianship ends first as a resignation the owner can
 * see (a step, not a silent disappearance); its row keeps the address the owner typed, with no link
 * to the deleted account. The data-rights capability extends this (export to recipients first).
 */
export async function deleteAccount(ctx: ServiceContext, userId: string) {
  const canaries = await ctx.db.select({ id: schema.canaries.id }).from(schema.canaries).where(eq(schema.canaries.user_id, userId));
  await Promise.all(canaries.map((c) => stopCanaryTimer(ctx.env, c.id)));
  const blobs = await blobKeysOf(ctx, userId);
  const clonedVoice = await ctx.env.DB.prepare('SELECT provider_voice_id FROM voice_profiles WHERE user_id = ?1 AND provider_voice_id IS NOT NULL')
    .bind(userId)
    .first<{ provider_voice_id: string }>();
  // A running subscription ends first: an erased account is never charged again (docs/decisions/billing.md).
  await cancelBillingOf(ctx, userId);
  const told = await tellSendersTheRecipientLeft(ctx, userId);
  await Promise.all([stopGuardianClock(ctx.env, userId)]);
  const now = ctx.now().getTime();
  await ctx.env.DB.batch([
    ctx.env.DB.prepare(
      `INSERT INTO ladder_transitions (id, owner_id, kind, actor, cause, detail, report_id, dedupe_key, at)
       SELECT lower(hex(randomblob(16))), owner_id, 'guardian_resigned', 'guardian:' || id, 'account_deleted', email, NULL, NULL, ?2
       FROM guardians WHERE guardian_user_id = ?1 AND status = 'active'`,
    ).bind(userId, now),
    ctx.env.DB.prepare(`UPDATE guardians SET status = 'resigned', ended_at = ?2 WHERE guardian_user_id = ?1 AND status = 'active'`).bind(userId, now),
    ctx.env.DB.prepare('UPDATE guardians SET guardian_user_id = NULL WHERE guardian_user_id = ?1').bind(userId),
  ]);
  // One batch, so one transaction: the messages to the user are left undeliverable exactly when the user
  // row goes (its ON DELETE SET NULL empties their recipient).
  const undeliverable = leaveMessagesUndeliverable(ctx.env.DB, userId, now);
  const batch = await ctx.env.DB.batch([
    ...undeliverable.statements,
    // The account's local mailbox (no foreign key: see db/schema/outbox.ts).
    ctx.env.DB.prepare('DELETE FROM outbox_messages WHERE recipient_user_id = ?1').bind(userId),
    // Vault files given to this account: their items go with it (foreign key), the files with them.
    ctx.env.DB.prepare('DELETE FROM vault_assets WHERE id IN (SELECT asset_id FROM vault_items WHERE recipient_user_id = ?1)').bind(userId),
    ctx.env.DB.prepare('DELETE FROM users WHERE id = ?1').bind(userId),
  ]);
  const cancelled = (batch[undeliverable.cancelledAt]?.results ?? []) as { id: string }[];
  // After the rows: a failure here leaves unreachable bytes, never a row pointing at nothing.
  for (let i = 0; i < blobs.length; i += 1000) await ctx.env.BLOBS.delete(blobs.slice(i, i + 1000));
  // The voice cloned from their samples at the voice provider: asked after the rows, retried by a job if it fails.
  if (clonedVoice) await forgetClonedVoice(ctx, clonedVoice.provider_voice_id);
  // Their clocks find them closed and stop.
  await Promise.all(cancelled.map((m) => syncReleaseTimer(ctx.env, m.id)));
  for (const id of told) await enqueueOwnerNotice(ctx, id);
  log.info('account deleted', { user_id: userId, canaries: canaries.length, blobs: blobs.length, undeliverable: cancelled.length });
}

export const RECIPIENT_LEFT_CANCELLED = 'The recipient deleted their Afterword account before it was released: it can no longer be delivered.';
export const RECIPIENT_LEFT_FAILED = 'The recipient deleted their Afterword account while it was being delivered: the delivery stopped.';

/**
 * What the leaving user's account deletion does to the messages others wrote to them, in one batch that
 * runs before the user row goes (whose `ON DELETE SET NULL` then takes the recipient out of each message).
 * Each change is a transition with cause `recipient_left`, as the release engine records its own, and
 * bumps `version`, so an engine run that read the message before loses its compare-and-set:
 * - not released (scheduled or armed) → cancelled: never released, shown as undeliverable;
 * - released and still delivering (releasing) → failed, its open deliveries closed as failed (the address
 *   they were going to is erased);
 * - delivered, failed or cancelled before: unchanged, their history stays with the sender;
 * - vault items given to the user: deleted with their messages (their files go with the user).
 * The recipient's own trace in a message (`read_at`) is cleared. `cancelledAt` is the index of the
 * statement that answers the cancelled messages' ids.
 */
function leaveMessagesUndeliverable(db: D1Database, userId: string, now: number) {
  const toThem = 'recipient_user_id = ?1 AND sender_id != ?1 AND vault_item_id IS NULL';
  const transition = (from: string, to: string, detail: string) =>
    db
      .prepare(
        `INSERT INTO message_transitions (id, message_id, from_status, to_status, cause, detail, dedupe_key, created_at)
         SELECT lower(hex(randomblob(16))), id, status, ?3, 'recipient_left', ?4, NULL, ?2 FROM messages WHERE ${toThem} AND status = ?5`,
      )
      .bind(userId, now, to, detail, from);
  const statements = [
    transition('scheduled', 'cancelled', RECIPIENT_LEFT_CANCELLED),
    transition('armed', 'cancelled', RECIPIENT_LEFT_CANCELLED),
    db
      .prepare(
        `UPDATE messages SET status = 'cancelled', version = version + 1, updated_at = ?2, finished_at = ?2, cancel_deadline = NULL
         WHERE ${toThem} AND status IN ('scheduled', 'armed') RETURNING id`,
      )
      .bind(userId, now),
    transition('releasing', 'failed', RECIPIENT_LEFT_FAILED),
    db
      .prepare(
        `UPDATE deliveries SET status = 'failed', lease_until = NULL, last_error = ?3, updated_at = ?2
         WHERE status IN ('pending', 'retrying', 'sending') AND message_id IN (SELECT id FROM messages WHERE ${toThem} AND status = 'releasing')`,
      )
      .bind(userId, now, 'The recipient deleted their Afterword account.'),
    db
      .prepare(`UPDATE messages SET status = 'failed', version = version + 1, updated_at = ?2, finished_at = ?2 WHERE ${toThem} AND status = 'releasing'`)
      .bind(userId, now),
    db.prepare('UPDATE messages SET read_at = NULL WHERE recipient_user_id = ?1 AND read_at IS NOT NULL').bind(userId),
    db.prepare('DELETE FROM messages WHERE recipient_user_id = ?1 AND vault_item_id IS NOT NULL').bind(userId),
  ];
  return { statements, cancelledAt: 2 };
}

/**
 * People who wrote to the leaving user and whose messages are not released yet are told: a letter waiting
 * for someone who left is not kept in silence. One notice per sender (their messages and their own alert
 * settings); returns the notices to queue once the erasure is done. Messages stay under My Messages as
 * undeliverable; vault files given to the user go with them.
 */
async function tellSendersTheRecipientLeft(ctx: ServiceContext, userId: string): Promise<string[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT m.sender_id, sum(m.vault_item_id IS NULL) AS n, sum(m.vault_item_id IS NOT NULL) AS files, u.email, u.display_name
     FROM messages m JOIN users u ON u.id = m.recipient_user_id
     WHERE m.recipient_user_id = ?1 AND m.sender_id != ?1 AND m.released_at IS NULL AND m.status IN ('scheduled', 'armed')
     GROUP BY m.sender_id`,
  )
    .bind(userId)
    .all<{ sender_id: string; n: number; files: number; email: string; display_name: string | null }>();
  if (!results.length) return [];
  const at = ctx.now().getTime();
  const notices = results.map((r) => {
    const who = personLabel(r);
    const what = [
      r.n === 0
        ? null
        : r.n === 1
          ? 'Your message to them that was not released yet can no longer be delivered: it stays in My Messages, marked undeliverable.'
          : `Your ${r.n} messages to them that were not released yet can no longer be delivered: they stay in My Messages, marked undeliverable.`,
      r.files === 0
        ? null
        : r.files === 1
          ? 'The vault file you gave them was removed with their account.'
          : `The ${r.files} vault files you gave them were removed with their account.`,
    ].filter(Boolean);
    return {
      id: crypto.randomUUID(),
      userId: r.sender_id,
      kind: 'recipient_left',
      subject: `${who} has left Afterword`,
      text: `${who} deleted their account. ${what.join(' ')} Nothing else of yours changed.`,
      link: r.n > 0 ? `${appOrigin(ctx.env)}/app/messages` : null,
      at,
    };
  });
  await ctx.env.DB.batch(notices.map((n) => insertOwnerNotice(ctx.env.DB, n, { sql: '' })));
  return notices.map((n) => n.id);
}

/**
 * R2 keys of the audio and attachments of every message the user sent (those others sent them stay with
 * their senders) and of the vault items given to them, of their vault files,
 * of the vault files given to them (a file given to one person goes with that person) and of the copies of
 * accounts left to them, of their voice recordings, of their chat exports waiting to be read and of their capsules' audio and video.
 */
async function blobKeysOf(ctx: ServiceContext, userId: string): Promise<string[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT audio_key AS k FROM messages WHERE (sender_id = ?1 OR (recipient_user_id = ?1 AND vault_item_id IS NOT NULL)) AND audio_key IS NOT NULL
     UNION ALL
     SELECT a.r2_key FROM message_attachments a JOIN messages m ON m.id = a.message_id
     WHERE m.sender_id = ?1 OR (m.recipient_user_id = ?1 AND m.vault_item_id IS NOT NULL)
     UNION
     SELECT r2_key FROM vault_assets WHERE owner_id = ?1 OR id IN (SELECT asset_id FROM vault_items WHERE recipient_user_id = ?1)
     UNION
     SELECT r2_key FROM legacy_copies WHERE recipient_user_id = ?1
     UNION
     SELECT r2_key FROM voice_samples WHERE owner_id = ?1`,
  )
    .bind(userId)
    .all<{ k: string }>();
  // D1 allows five terms in one compound SELECT: voice prompts' recordings, chat exports not yet read and
  // capsule media are a second query.
  const { results: prompts } = await ctx.env.DB.prepare(
    `SELECT r2_key AS k FROM voice_prompts WHERE owner_id = ?1 AND r2_key IS NOT NULL
     UNION ALL
     SELECT r2_key FROM chat_imports WHERE owner_id = ?1 AND r2_key IS NOT NULL
     UNION ALL
     SELECT i.r2_key FROM capsule_items i JOIN capsules c ON c.id = i.capsule_id WHERE c.author_id = ?1 AND i.r2_key IS NOT NULL`,
  )
    .bind(userId)
    .all<{ k: string }>();
  return [...results, ...prompts].map((r) => r.k);
}
