import type { User } from '@afterword/db/schema';
import { mergeCapsuleEdit, RELEASE_AT_SLACK_MS, type TCapsuleEdit, type TCapsuleInput, type TMyCapsule } from '../../contracts/capsules';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { toFieldIssues } from '../../lib/validation';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { itemsOf, ownCapsule, toMyCapsule } from './capsule-records';
import { ftsBody } from './search-terms';

/**
 * POST /api/capsule/create: a new capsule, its items and its search-index row in one batch (all or
 * nothing). Needs the `confessions` consent. `release_at` empty = now; in the past (beyond a few minutes
 * of clock skew) is refused.
 */
export async function createCapsule(ctx: ServiceContext, author: User, input: TCapsuleInput): Promise<TMyCapsule> {
  await requireConsent(ctx, author.id, 'confessions', consentWithdrawn('confessions', 'no capsules can be made'));
  const now = ctx.now().getTime();
  const releaseAt = await checkedInput(ctx, input, now);
  const id = crypto.randomUUID();
  const db = ctx.env.DB;
  await db.batch([
    db
      .prepare(
        `INSERT INTO capsules (id, author_id, title, theme, is_anonymous, release_at, memorial_id, unpublished_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, ?8, ?8)`,
      )
      .bind(id, author.id, input.title, input.theme, input.is_anonymous ? 1 : 0, releaseAt, input.memorial_id, now),
    ...contentStatements(ctx, id, input, now),
  ]);
  return readOwn(ctx, author, id, now);
}

/**
 * PATCH /api/capsule/{id}: the author changes any of a capsule's title, theme, anonymity, release date,
 * memorial and content (the rest is kept) — before it is released only (409 after: people may have read
 * it). Ownership is checked before the fields, so nobody learns from a 422 that a capsule exists.
 */
export async function editCapsule(ctx: ServiceContext, author: User, id: string, edit: TCapsuleEdit): Promise<TMyCapsule> {
  const now = ctx.now().getTime();
  const capsule = await ownCapsule(ctx, author.id, id);
  if (capsule.release_at.getTime() <= now) throw new AppError('CONFLICT', 'This capsule is already released: it can no longer be edited, only deleted');
  const items = (await itemsOf(ctx, [id])).get(id)!;
  const current = {
    title: capsule.title,
    theme: capsule.theme,
    is_anonymous: capsule.is_anonymous,
    // Kept as it is below when the edit leaves it out.
    release_at: null,
    memorial_id: capsule.memorial_id,
    // Only the text items are written in the body; audio and video are kept as they are (their own calls).
    content: items.filter((i) => i.type === 'text').map((i) => ({ type: 'text' as const, data: i.data })),
  };
  const parsed = mergeCapsuleEdit(current, edit);
  if (!parsed.success) throw new AppError('UNPROCESSABLE', toFieldIssues(parsed.error, 'body'));
  const input = parsed.data;
  // A release date kept as it was may have slipped just behind the clock: it still means "as planned".
  if (edit.release_at === undefined) input.release_at = capsule.release_at;
  const releaseAt = await checkedInput(ctx, input, now);
  const db = ctx.env.DB;
  // The compare-and-set (still unreleased) guards the window between the read above and this batch.
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE capsules SET title = ?3, theme = ?4, is_anonymous = ?5, release_at = ?6, memorial_id = ?7, updated_at = ?8
         WHERE id = ?1 AND author_id = ?2 AND release_at > ?8`,
      )
      .bind(id, author.id, input.title, input.theme, input.is_anonymous ? 1 : 0, releaseAt, input.memorial_id, now),
    db.prepare(`DELETE FROM capsule_items WHERE capsule_id = ?1 AND type = 'text' AND ${EDITED_NOW}`).bind(id, now),
    db.prepare(`DELETE FROM capsules_fts WHERE capsule_id = ?1 AND ${EDITED_NOW}`).bind(id, now),
    ...contentStatements(ctx, id, input, now),
  ]);
  if ((updated?.meta.changes ?? 0) !== 1) throw new AppError('CONFLICT', 'This capsule is already released: it can no longer be edited, only deleted');
  return readOwn(ctx, author, id, now);
}

/** DELETE /api/capsule/{id}: the author deletes their capsule, released or not (its index row goes by trigger), and its audio and video files. */
export async function deleteCapsule(ctx: ServiceContext, author: User, id: string): Promise<TMyCapsule> {
  const now = ctx.now().getTime();
  const before = await readOwn(ctx, author, id, now);
  const db = ctx.env.DB;
  const [files] = await db.batch<{ r2_key: string }>([
    db.prepare('SELECT r2_key FROM capsule_items WHERE capsule_id = ?1 AND r2_key IS NOT NULL').bind(id),
    db.prepare('DELETE FROM capsules WHERE id = ?1 AND author_id = ?2').bind(id, author.id),
  ]);
  const results = files?.results ?? [];
  if (results.length) await ctx.env.BLOBS.delete(results.map((r) => r.r2_key));
  return before;
}

/**
 * POST /api/capsule/{id}/publish: an unpublished capsule (the author withdrew the confessions consent
 * and has given it again) is public again from its release date. Needs the consent.
 */
export async function publishCapsule(ctx: ServiceContext, author: User, id: string): Promise<TMyCapsule> {
  await ownCapsule(ctx, author.id, id);
  await requireConsent(ctx, author.id, 'confessions', consentWithdrawn('confessions', 'capsules cannot be published'));
  await ctx.env.DB.prepare('UPDATE capsules SET unpublished_at = NULL WHERE id = ?1 AND author_id = ?2').bind(id, author.id).run();
  return readOwn(ctx, author, id, ctx.now().getTime());
}

/** True only when this batch's UPDATE went through (`?1` the capsule, `?2` now): the rest of an edit follows it or nothing does. */
const EDITED_NOW = 'EXISTS (SELECT 1 FROM capsules WHERE id = ?1 AND updated_at = ?2)';

/** The items' and the search index's rows of a capsule's content, written only if its row says `updated_at = now`. */
function contentStatements(ctx: ServiceContext, id: string, input: TCapsuleInput, now: number) {
  const db = ctx.env.DB;
  return [
    ...input.content.map((item, position) =>
      db
        .prepare(`INSERT INTO capsule_items (id, capsule_id, position, type, data) SELECT ?3, ?1, ?4, ?5, ?6 WHERE ${EDITED_NOW}`)
        .bind(id, now, crypto.randomUUID(), position, item.type, item.data),
    ),
    db.prepare(`INSERT INTO capsules_fts (capsule_id, title, body) SELECT ?1, ?3, ?4 WHERE ${EDITED_NOW}`).bind(id, now, input.title, ftsBody(input.content)),
  ];
}

/** The release time to store (ms), after the checks the schema cannot make: not past, the memorial exists. */
async function checkedInput(ctx: ServiceContext, input: TCapsuleInput, now: number): Promise<number> {
  const at = input.release_at?.getTime() ?? now;
  if (at < now - RELEASE_AT_SLACK_MS) throw bodyFieldError('release_at', 'release_at cannot be in the past: leave it empty to release now', 'past_release');
  if (input.memorial_id) {
    const found = await ctx.env.DB.prepare('SELECT 1 FROM memorials WHERE id = ?1').bind(input.memorial_id).first();
    if (!found) throw bodyFieldError('memorial_id', 'There is no memorial with this id', 'unknown_memorial');
  }
  return Math.max(at, now);
}

/** The author's own view of their capsule after a change. */
export async function readOwnCapsule(ctx: ServiceContext, author: Pick<User, 'id' | 'email'>, id: string, now: number) {
  return readOwn(ctx, author, id, now);
}

async function readOwn(ctx: ServiceContext, author: Pick<User, 'id' | 'email'>, id: string, now: number) {
  const capsule = await ownCapsule(ctx, author.id, id);
  const items = await itemsOf(ctx, [id]);
  return toMyCapsule(capsule, items.get(id)!, author.email, now);
}
