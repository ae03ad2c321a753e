import type { User } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { capsuleNotFound } from '../capsules/capsule-records';
import { postNotFound } from '../memorials/memorial-records';

/** Distinct reports after which a capsule or post is hidden pending review. */
export const REPORTS_TO_HIDE = 3;

const TARGETS = {
  // Only what the reporter can see may be reported: a public capsule, a visible post.
  capsule: { table: 'capsules', author: 'author_id', visible: 'release_at <= ?2 AND unpublished_at IS NULL AND hidden_at IS NULL', missing: capsuleNotFound },
  post: { table: 'memorial_posts', author: 'author_id', visible: 'hidden_at IS NULL', missing: postNotFound },
} as const;

/**
 * POST /api/capsule/{id}/report, POST /api/memorial/post/{id}/report: a signed-in person reports what they
 * can see. One report per person per target (a repeat changes nothing); at the third distinct report the
 * target is hidden, in the same batch, so concurrent reports cannot miss the threshold. One's own is 422.
 * The answer never says how many reported it or whether it is now hidden.
 */
export async function reportTarget(ctx: ServiceContext, reporter: User, type: keyof typeof TARGETS, id: string): Promise<{ reported: true }> {
  const t = TARGETS[type];
  const db = ctx.env.DB;
  const now = ctx.now().getTime();
  const lookup = db.prepare(`SELECT ${t.author} AS author FROM ${t.table} WHERE id = ?1 AND ${t.visible}`);
  const target = await (type === 'capsule' ? lookup.bind(id, now) : lookup.bind(id)).first<{ author: string }>();
  if (!target) throw t.missing();
  if (target.author === reporter.id) throw new AppError('UNPROCESSABLE', `You cannot report your own ${type}: delete it instead`);
  await db.batch([
    db
      .prepare('INSERT INTO community_reports (target_type, target_id, reporter_id, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING')
      .bind(type, id, reporter.id, now),
    db
      .prepare(
        `UPDATE ${t.table} SET hidden_at = ?3 WHERE id = ?1 AND hidden_at IS NULL
         AND (SELECT count(*) FROM community_reports WHERE target_type = ?2 AND target_id = ?1) >= ${REPORTS_TO_HIDE}`,
      )
      .bind(id, type, now),
  ]);
  return { reported: true };
}

/**
 * DELETE /api/memorial/post/{id}: a post's author removes it, and so does the creator of the memorial it is
 * on (their page). Anyone else: 404, as for a post that does not exist.
 */
export async function deletePost(ctx: ServiceContext, user: User, id: string): Promise<{ id: string; deleted: true }> {
  // RETURNING, not meta.changes: D1 counts the triggers' index and report deletions in `changes` too.
  const gone = await ctx.env.DB.prepare(
    'DELETE FROM memorial_posts WHERE id = ?1 AND (author_id = ?2 OR memorial_id IN (SELECT id FROM memorials WHERE created_by = ?2)) RETURNING id',
  )
    .bind(id, user.id)
    .first();
  if (!gone) throw postNotFound();
  return { id, deleted: true };
}
