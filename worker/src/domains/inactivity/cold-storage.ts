import type { StorageClassJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';

/** R2's storage classes: an archived account's files wait in the cheaper, slower one. */
export type StorageClass = 'Standard' | 'InfrequentAccess';

/** Objects moved per job: a big account continues in a follow-up job from the last key. */
const PER_JOB = 200;

/** Queues the move of a user's files to the storage class their account's state calls for. */
export async function enqueueStorageClassMove(ctx: Pick<ServiceContext, 'env'>, userId: string, after?: string) {
  try {
    await ctx.env.JOBS.send({ type: 'storage_class', user_id: userId, ...(after ? { after } : {}) } satisfies StorageClassJob, { contentType: 'json' });
  } catch (err) {
    // The next sign-in or archival queues it again; the files stay readable in either class meanwhile.
    log.error('enqueue failed', { queue: 'JOBS', type: 'storage_class', error: String(err) });
  }
}

/**
 * The JOBS consumer of storage-class moves: every file the user owns (audio and attachments of the
 * messages they sent, their vault files) is rewritten in the class their account's state calls for now
 * — cold while archived, standard otherwise — so a restore that overtakes an archival job wins. Each
 * object carries the class it was written in as `storage_class` metadata (local R2 does not report a
 * storage class), and one already in the right class is skipped, so a retried job does no work twice.
 */
export async function moveUserFiles(ctx: ServiceContext, job: StorageClassJob): Promise<{ moved: number; more: boolean }> {
  const user = await ctx.env.DB.prepare('SELECT archived_at FROM users WHERE id = ?1').bind(job.user_id).first<{ archived_at: number | null }>();
  if (!user) return { moved: 0, more: false };
  const target: StorageClass = user.archived_at != null ? 'InfrequentAccess' : 'Standard';
  const keys = await ownedKeys(ctx, job.user_id, job.after ?? '');
  let moved = 0;
  for (const key of keys) {
    const head = await ctx.env.BLOBS.head(key);
    if (!head || (head.customMetadata?.storage_class ?? 'Standard') === target) continue;
    const object = await ctx.env.BLOBS.get(key);
    if (!object) continue;
    await ctx.env.BLOBS.put(key, object.body, {
      httpMetadata: object.httpMetadata,
      customMetadata: { ...object.customMetadata, storage_class: target },
      storageClass: target,
    });
    moved++;
  }
  const more = keys.length === PER_JOB;
  if (more) await enqueueStorageClassMove(ctx, job.user_id, keys[keys.length - 1]);
  return { moved, more };
}

/** The R2 keys of the files the user owns, in key order after `after`. */
export async function ownedKeys(ctx: ServiceContext, userId: string, after = '', limit = PER_JOB): Promise<string[]> {
  // D1 allows five terms in one compound SELECT: capsule media are a second query, merged in key order.
  const page = (sources: string) =>
    ctx.env.DB.prepare(`SELECT k FROM (${sources}) WHERE k > ?2 ORDER BY k LIMIT ?3`).bind(userId, after, limit).all<{ k: string }>();
  const [first, second] = await Promise.all([
    page(
      `SELECT audio_key AS k FROM messages WHERE sender_id = ?1 AND audio_key IS NOT NULL
       UNION SELECT r2_key FROM message_attachments WHERE owner_id = ?1
       UNION SELECT r2_key FROM vault_assets WHERE owner_id = ?1
       UNION SELECT r2_key FROM voice_samples WHERE owner_id = ?1
       UNION SELECT r2_key FROM voice_prompts WHERE owner_id = ?1 AND r2_key IS NOT NULL`,
    ),
    page('SELECT i.r2_key AS k FROM capsule_items i JOIN capsules c ON c.id = i.capsule_id WHERE c.author_id = ?1 AND i.r2_key IS NOT NULL'),
  ]);
  const keys = [...new Set([...first.results, ...second.results].map((r) => r.k))].sort();
  return keys.slice(0, limit);
}
