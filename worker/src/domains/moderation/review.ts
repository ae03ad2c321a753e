import type { User } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError, bodyFieldError, notFound } from '../../lib/errors';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';

/** Whether `user` is one of the configured moderators (MODERATOR_EMAILS, case-insensitive). */
export function isModerator(ctx: ServiceContext, user: User): boolean {
  const list = (ctx.env.MODERATOR_EMAILS ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  return list.includes(user.email.toLowerCase());
}

/** The 404 of an item that is not in the queue — also what anyone but a moderator gets. */
export const notInQueue = () => notFound('Not in the review queue');

export interface QueueItem {
  type: 'capsule' | 'post';
  id: string;
  /** A capsule's title, or the memorial's name of a post. */
  label: string;
  text: string;
  reports: number;
  hidden_at: string;
}

/**
 * GET /api/moderation/status: whether the caller moderates, and how many items wait (0 for anyone else,
 * who learns nothing about the queue): what the app reads to offer the review page.
 */
export async function moderationStatus(ctx: ServiceContext, user: User): Promise<{ moderator: boolean; waiting: number }> {
  if (!isModerator(ctx, user)) return { moderator: false, waiting: 0 };
  const row = await ctx.env.DB.prepare(
    `SELECT (SELECT count(*) FROM capsules WHERE hidden_at IS NOT NULL) + (SELECT count(*) FROM memorial_posts WHERE hidden_at IS NOT NULL) AS n`,
  ).first<{ n: number }>();
  return { moderator: true, waiting: row?.n ?? 0 };
}

/** GET /api/moderation/queue: every hidden capsule and post, oldest hidden first. Moderators only (403). */
export async function reviewQueue(ctx: ServiceContext, user: User): Promise<QueueItem[]> {
  if (!isModerator(ctx, user)) throw new AppError('FORBIDDEN', 'Only moderators see the review queue');
  const reports = (type: string, id: string) => `(SELECT count(*) FROM community_reports r WHERE r.target_type = '${type}' AND r.target_id = ${id})`;
  const { results } = await ctx.env.DB.prepare(
    `SELECT 'capsule' AS type, c.id, c.title AS label,
       (SELECT group_concat(data, char(10)) FROM capsule_items WHERE capsule_id = c.id AND type = 'text') AS text,
       ${reports('capsule', 'c.id')} AS reports, c.hidden_at
     FROM capsules c WHERE c.hidden_at IS NOT NULL
     UNION ALL
     SELECT 'post', p.id, m.name, p.text, ${reports('post', 'p.id')}, p.hidden_at
     FROM memorial_posts p JOIN memorials m ON m.id = p.memorial_id WHERE p.hidden_at IS NOT NULL
     ORDER BY hidden_at, id`,
  ).all<{ type: 'capsule' | 'post'; id: string; label: string; text: string | null; reports: number; hidden_at: number }>();
  return results.map((r) => ({ ...r, text: r.text ?? '', hidden_at: new Date(r.hidden_at).toISOString() }));
}

const TABLE = { capsule: 'capsules', post: 'memorial_posts' } as const;

/**
 * POST /api/moderation/{capsule|post}/{id} {decision}: a moderator decides on a hidden item. `restore`
 * makes it public again and clears its reports (it takes 3 new ones to hide it again); `remove` deletes it
 * and tells its author. Not hidden, or not a moderator: 404.
 */
export async function decide(ctx: ServiceContext, user: User, type: 'capsule' | 'post', id: string, decision: 'restore' | 'remove' | undefined) {
  if (!isModerator(ctx, user)) throw notInQueue();
  const db = ctx.env.DB;
  const label = type === 'capsule' ? 'title' : '(SELECT name FROM memorials WHERE id = memorial_id)';
  const item = await db
    .prepare(`SELECT author_id AS author, ${label} AS label FROM ${TABLE[type]} WHERE id = ?1 AND hidden_at IS NOT NULL`)
    .bind(id)
    .first<{ author: string; label: string }>();
  if (!item) throw notInQueue();
  if (!decision) throw bodyFieldError('decision', 'decision must be restore or remove', 'missing');
  if (decision === 'restore') {
    await db.batch([
      db.prepare(`UPDATE ${TABLE[type]} SET hidden_at = NULL WHERE id = ?1`).bind(id),
      db.prepare('DELETE FROM community_reports WHERE target_type = ?1 AND target_id = ?2').bind(type, id),
    ]);
    return { type, id, decision };
  }
  const noticeId = crypto.randomUUID();
  const what = type === 'capsule' ? `Your capsule “${item.label}”` : `Your post on the memorial of ${item.label}`;
  await db.batch([
    db.prepare(`DELETE FROM ${TABLE[type]} WHERE id = ?1`).bind(id),
    insertOwnerNotice(
      db,
      {
        id: noticeId,
        userId: item.author,
        kind: 'community_removed',
        subject: `${what} was removed`,
        text: `${what} was removed after review of the reports it received. ${appOrigin(ctx.env)}/app/${type === 'capsule' ? 'capsules' : 'memorial'}`,
        link: null,
        at: ctx.now().getTime(),
      },
      { sql: `WHERE NOT EXISTS (SELECT 1 FROM ${TABLE[type]} WHERE id = ?)`, params: [id] },
    ),
  ]);
  await enqueueOwnerNotice(ctx, noticeId);
  return { type, id, decision };
}
