import { schema } from '@afterword/db';
import { eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { log } from '../../lib/logger';
import { personLabel } from '../../lib/person-label';
import { cancelBillingOf } from '../billing/end-billing';
import { stopCanaryTimer } from '../canary/canary-timer';
import { stopGuardianClock } from '../guardian/ladder-timer';
import { enqueueOwnerNotice, insertOwnerNotice } from '../messages/notices/enqueue-owner-notice';

/**
 * The one erasure of an account. Tables keyed to the user by a foreign key go with the user row
 * (sessions, canaries, activity, dead-man switch, messages sent and received with their attachments,
 * keys; the guardian ladder: their guardians, settings, death reports with votes, holds, steps and
 * guardian notices); tables kept without one are cleared here, and so are the R2 objects of those
 * messages. Where the user guards others, the guardianship ends first as a resignation the owner can
 * see (a step, not a silent disappearance); its row keeps the address the owner typed, with no link
 * to the deleted account. The data-rights capability extends this (export to recipients first).
 */
export async function deleteAccount(ctx: ServiceContext, userId: string) {
  const canaries = await ctx.db.select({ id: schema.canaries.id }).from(schema.canaries).where(eq(schema.canaries.user_id, userId));
  await Promise.all(canaries.map((c) => stopCanaryTimer(ctx.env, c.id)));
  const blobs = await blobKeysOf(ctx, userId);
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
  await runBatch(ctx.db, [
    ctx.db.delete(schema.canaryTransitions).where(eq(schema.canaryTransitions.user_id, userId)),
    // The account's local mailbox (no foreign key: see db/schema/outbox.ts).
    ctx.db.delete(schema.outboxMessages).where(eq(schema.outboxMessages.recipient_user_id, userId)),
    // Vault files given to this account: their items go with it (foreign key), the files with them.
    ctx.db
      .delete(schema.vaultAssets)
      .where(
        inArray(
          schema.vaultAssets.id,
          ctx.db.select({ id: schema.vaultItems.asset_id }).from(schema.vaultItems).where(eq(schema.vaultItems.recipient_user_id, userId)),
        ),
      ),
    ctx.db.delete(schema.users).where(eq(schema.users.id, userId)),
  ]);
  // After the rows: a failure here leaves unreachable bytes, never a row pointing at nothing.
  for (let i = 0; i < blobs.length; i += 1000) await ctx.env.BLOBS.delete(blobs.slice(i, i + 1000));
  for (const id of told) await enqueueOwnerNotice(ctx, id);
  log.info('account deleted', { user_id: userId, canaries: canaries.length, blobs: blobs.length });
}

/**
 * People who wrote to the leaving user and whose messages are not released yet are told, before the
 * messages go with the account: a letter waiting for someone who left is not kept in silence. One notice
 * per sender (their messages and their own alert settings); returns the notices to queue once the erasure
 * is done.
 */
async function tellSendersTheRecipientLeft(ctx: ServiceContext, userId: string): Promise<string[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT m.sender_id, count(*) AS n, u.email, u.display_name FROM messages m JOIN users u ON u.id = m.recipient_user_id
     WHERE m.recipient_user_id = ?1 AND m.sender_id != ?1 AND m.released_at IS NULL AND m.status IN ('scheduled', 'armed')
     GROUP BY m.sender_id`,
  )
    .bind(userId)
    .all<{ sender_id: string; n: number; email: string; display_name: string | null }>();
  if (!results.length) return [];
  const at = ctx.now().getTime();
  const notices = results.map((r) => {
    const who = personLabel(r);
    const what = r.n === 1 ? 'Your message to them that was not released yet' : `Your ${r.n} messages to them that were not released yet`;
    return {
      id: crypto.randomUUID(),
      userId: r.sender_id,
      kind: 'recipient_left',
      subject: `${who} has left Afterword`,
      text: `${who} deleted their account. ${what} can no longer be delivered and ${r.n === 1 ? 'was' : 'were'} removed with it. Nothing else of yours changed.`,
      link: null,
      at,
    };
  });
  await ctx.env.DB.batch(notices.map((n) => insertOwnerNotice(ctx.env.DB, n, { sql: '' })));
  return notices.map((n) => n.id);
}

/**
 * R2 keys of the audio and attachments of every message the user sent or received, of their vault files,
 * of the vault files given to them (a file given to one person goes with that person) and of the copies of
 * accounts left to them, of their voice recordings, of their chat exports waiting to be read and of their capsules' audio and video.
 */
async function blobKeysOf(ctx: ServiceContext, userId: string): Promise<string[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT audio_key AS k FROM messages WHERE (sender_id = ?1 OR recipient_user_id = ?1) AND audio_key IS NOT NULL
     UNION ALL
     SELECT a.r2_key FROM message_attachments a JOIN messages m ON m.id = a.message_id WHERE m.sender_id = ?1 OR m.recipient_user_id = ?1
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
