import type { User } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError } from '../../lib/errors';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { capsuleNotFound } from '../capsules/capsule-records';
import { postNotFound } from '../memorials/memorial-records';

/** Distinct reports after which a capsule or post is hidden pending review. */
export const REPORTS_TO_HIDE = 3;

const TARGETS = {
  // Only what the reporter can see may be reported: a public capsule, a visible post.
  capsule: {
    table: 'capsules',
    label: 'title',
    visible: 'release_at <= ?2 AND unpublished_at IS NULL AND hidden_at IS NULL',
    missing: capsuleNotFound,
  },
  post: {
    table: 'memorial_posts',
    label: '(SELECT name FROM memorials WHERE id = memorial_id)',
    visible: 'hidden_at IS NULL',
    missing: postNotFound,
  },
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
  const noticeId = crypto.randomUUID();
  const lookup = db.prepare(`SELECT author_id AS author, ${t.label} AS label FROM ${t.table} WHERE id = ?1 AND ${t.visible}`);
  const target = await (type === 'capsule' ? lookup.bind(id, now) : lookup.bind(id)).first<{ author: string; label: string }>();
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
    // The author is told, exactly when this report is the one that hid it.
    insertOwnerNotice(db, hiddenNotice(ctx, type, target.author, target.label, noticeId, now), { sql: 'WHERE changes() = 1' }),
  ]);
  if (await db.prepare('SELECT 1 FROM owner_notices WHERE id = ?1').bind(noticeId).first()) await enqueueOwnerNotice(ctx, noticeId);
  return { reported: true };
}

/** What the author of a hidden capsule or post reads (never who reported it, nor how many). */
function hiddenNotice(ctx: ServiceContext, type: keyof typeof TARGETS, userId: string, label: string, id: string, at: number) {
  const what = type === 'capsule' ? `Your capsule “${label}”` : `Your post on the memorial of ${label}`;
  return {
    id,
    userId,
    kind: 'community_hidden',
    subject: `${what} is hidden for review`,
    text: `${what} was reported by several people, so it is hidden from everyone else until it is reviewed. You can still delete it. ${appOrigin(ctx.env)}/app/${type === 'capsule' ? 'capsules' : 'memorial'}`,
    link: null,
    at,
  };
}

/**
 * DELETE /api/memorial/post/{id}: a post's author removes it, and so does the creator of the memorial it is
 * on (their page; the author is then told). Anyone else: 404, as for a post that does not exist.
 */
export async function deletePost(ctx: ServiceContext, user: User, id: string): Promise<{ id: string; deleted: true }> {
  const db = ctx.env.DB;
  const post = await db
    .prepare(
      `SELECT p.author_id AS author, m.name AS name FROM memorial_posts p JOIN memorials m ON m.id = p.memorial_id
       WHERE p.id = ?1 AND (p.author_id = ?2 OR m.created_by = ?2)`,
    )
    .bind(id, user.id)
    .first<{ author: string; name: string }>();
  if (!post) throw postNotFound();
  const now = ctx.now().getTime();
  const noticeId = crypto.randomUUID();
  const byCreator = post.author !== user.id;
  const what = `Your post on the memorial of ${post.name}`;
  await db.batch([
    db.prepare('DELETE FROM memorial_posts WHERE id = ?1').bind(id),
    ...(byCreator
      ? [
          insertOwnerNotice(
            db,
            {
              id: noticeId,
              userId: post.author,
              kind: 'community_removed',
              subject: `${what} was removed`,
              text: `${what} was removed by the person who made that memorial page. ${appOrigin(ctx.env)}/app/memorial`,
              link: null,
              at: now,
            },
            { sql: 'WHERE NOT EXISTS (SELECT 1 FROM memorial_posts WHERE id = ?)', params: [id] },
          ),
        ]
      : []),
  ]);
  if (byCreator) await enqueueOwnerNotice(ctx, noticeId);
  return { id, deleted: true };
}
