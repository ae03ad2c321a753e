import { schema } from '@afterword/db';
import { eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { log } from '../../lib/logger';
import { stopCanaryTimer } from '../canary/canary-timer';
import { stopGuardianClock } from '../guardian/ladder-timer';

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
  log.info('account deleted', { user_id: userId, canaries: canaries.length, blobs: blobs.length });
}

/**
 * R2 keys of the audio and attachments of every message the user sent or received, of their vault files,
 * and of the vault files given to them (a file given to one person goes with that person).
 */
async function blobKeysOf(ctx: ServiceContext, userId: string): Promise<string[]> {
  const { results } = await ctx.env.DB.prepare(
    `SELECT audio_key AS k FROM messages WHERE (sender_id = ?1 OR recipient_user_id = ?1) AND audio_key IS NOT NULL
     UNION ALL
     SELECT a.r2_key FROM message_attachments a JOIN messages m ON m.id = a.message_id WHERE m.sender_id = ?1 OR m.recipient_user_id = ?1
     UNION
     SELECT r2_key FROM vault_assets WHERE owner_id = ?1 OR id IN (SELECT asset_id FROM vault_items WHERE recipient_user_id = ?1)`,
  )
    .bind(userId)
    .all<{ k: string }>();
  return results.map((r) => r.k);
}
