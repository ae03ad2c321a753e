import type { LegacyCopyJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { appOrigin } from '../../lib/app-origin';

/** A copy handed to the queue this long ago and still pending is handed over again (a lost job). */
const REQUEUE_AFTER_MS = 15 * 60_000;

const FROM_LABEL_SQL = "CASE WHEN trim(o.display_name) != '' THEN trim(o.display_name) || ' (' || o.email || ')' ELSE o.email END";

/**
 * Before a due dead-man deletion is carried out ("share, then delete"): one copy per heir the owner
 * named, written once per deletion (unique per heir) and built by the JOBS queue. Returns how many are not
 * ready yet — the deletion waits for them (domains/deadman/process-deadman.ts).
 */
export async function copiesStillPending(ctx: ServiceContext, deletion: { id: string; user_id: string }): Promise<number> {
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const { results: heirs } = await db
    .prepare(
      `SELECT h.recipient_user_id, h.parts, ${FROM_LABEL_SQL} AS from_label FROM deadman_heirs h JOIN users o ON o.id = h.owner_id WHERE h.owner_id = ?1`,
    )
    .bind(deletion.user_id)
    .all<{ recipient_user_id: string; parts: string; from_label: string }>();
  if (heirs.length) {
    await db.batch(
      heirs.map((h) =>
        db
          .prepare(
            `INSERT INTO legacy_copies (id, recipient_user_id, deletion_id, from_label, parts, status, r2_key, queued_at, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6, 0, ?7) ON CONFLICT (deletion_id, recipient_user_id) DO NOTHING`,
          )
          .bind(crypto.randomUUID(), h.recipient_user_id, deletion.id, h.from_label, h.parts, `legacy/${deletion.id}/${h.recipient_user_id}.zip`, now),
      ),
    );
  }
  const { results: pending } = await db
    .prepare("SELECT id, queued_at FROM legacy_copies WHERE deletion_id = ?1 AND status = 'pending'")
    .bind(deletion.id)
    .all<{ id: string; queued_at: number }>();
  for (const copy of pending) {
    if (copy.queued_at > now - REQUEUE_AFTER_MS) continue;
    await db.prepare('UPDATE legacy_copies SET queued_at = ?2 WHERE id = ?1').bind(copy.id, now).run();
    try {
      await ctx.env.JOBS.send({ type: 'legacy_copy', copy_id: copy.id } satisfies LegacyCopyJob, { contentType: 'json' });
    } catch (err) {
      log.error('enqueue failed; the next cron run hands it over again', { queue: 'JOBS', type: 'legacy_copy', error: String(err) });
    }
  }
  return pending.length;
}

/**
 * After the erasure: each heir is told that a copy is waiting for them, in their own records (it outlived
 * the account it came from). Copies are invisible until then, so a check-in in the last minutes still
 * cancels everything and nobody is told anything.
 */
export async function tellHeirs(ctx: ServiceContext, deletionId: string) {
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const { results } = await db
    .prepare("SELECT id, recipient_user_id, from_label FROM legacy_copies WHERE deletion_id = ?1 AND status = 'ready'")
    .bind(deletionId)
    .all<{ id: string; recipient_user_id: string; from_label: string }>();
  if (!results.length) return;
  const notices = results.map((c) => ({
    id: crypto.randomUUID(),
    userId: c.recipient_user_id,
    kind: 'legacy_copy_ready',
    subject: `${c.from_label} left you a copy of their Afterword account`,
    text: `${c.from_label} chose you to receive a copy of parts of their account before it was closed. It is yours to download from your Inbox.`,
    link: `${appOrigin(ctx.env)}/app/inbox`,
    at: now,
  }));
  await db.batch(notices.map((n) => insertOwnerNotice(db, n, { sql: '' })));
  for (const n of notices) await enqueueOwnerNotice(ctx, n.id);
}

/** Copies made for a deletion that was cancelled (a check-in in the last day) are discarded, bytes first. */
export async function discardCancelledCopies(ctx: ServiceContext) {
  const { results } = await ctx.env.DB.prepare(
    `SELECT c.id, c.r2_key FROM legacy_copies c JOIN scheduled_deletions d ON d.id = c.deletion_id WHERE d.status = 'cancelled' LIMIT 100`,
  ).all<{ id: string; r2_key: string }>();
  if (!results.length) return 0;
  await ctx.env.BLOBS.delete(results.map((r) => r.r2_key));
  await ctx.env.DB.batch(results.map((r) => ctx.env.DB.prepare('DELETE FROM legacy_copies WHERE id = ?1').bind(r.id)));
  return results.length;
}
