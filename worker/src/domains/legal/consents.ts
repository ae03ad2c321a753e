import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import { CONSENT_KINDS } from '@afterword/db/enums';
import type { TConsent, TConsentHistory, TConsentKind, TConsents } from '../../contracts/legal';
import type { ServiceContext } from '../../env';

/** GET /api/legal/consent: the five kinds in a fixed order, each granted unless withdrawn. */
export async function listConsents(ctx: ServiceContext, userId: string): Promise<TConsents> {
  const rows = await ctx.db.select().from(schema.userConsents).where(eq(schema.userConsents.user_id, userId));
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return {
    items: CONSENT_KINDS.map((kind) => {
      const row = byKind.get(kind);
      return { id: kind, consent: row?.granted ?? true, updated_at: row ? row.updated_at.toISOString() : null };
    }),
  };
}

/**
 * Records one consent: a change is one batch, the history row (old → new) and the new state, written only when
 * the state really changes (a repeat records nothing). Withdrawing `confessions` unpublishes the user's
 * capsules in the same batch. What other domains do about a change (resuming releases, erasing voice data) is
 * composed around this in worker/src/wiring/set-consent.ts. Returns whether the state changed.
 */
export async function recordConsent(ctx: ServiceContext, userId: string, kind: TConsentKind, consent: boolean): Promise<{ changed: boolean }> {
  const now = ctx.now().getTime();
  const changeId = crypto.randomUUID();
  const db = ctx.env.DB;
  const current = 'coalesce((SELECT granted FROM user_consents WHERE user_id = ?2 AND kind = ?3), 1)';
  const [recorded] = await db.batch([
    db
      .prepare(
        `INSERT INTO consent_changes (id, user_id, kind, old_granted, new_granted, created_at)
         SELECT ?1, ?2, ?3, ${current}, ?4, ?5 WHERE ${current} != ?4`,
      )
      .bind(changeId, userId, kind, consent ? 1 : 0, now),
    db
      .prepare(
        `INSERT INTO user_consents (user_id, kind, granted, updated_at)
         SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM consent_changes WHERE id = ?5)
         ON CONFLICT (user_id, kind) DO UPDATE SET granted = excluded.granted, updated_at = excluded.updated_at`,
      )
      .bind(userId, kind, consent ? 1 : 0, now, changeId),
    // Withdrawing `confessions` unpublishes every capsule of the user's, in the same batch; giving it
    // again publishes none by itself (the author publishes each again: POST /api/capsule/{id}/publish).
    ...(kind === 'confessions' && !consent
      ? [db.prepare('UPDATE capsules SET unpublished_at = ?2 WHERE author_id = ?1 AND unpublished_at IS NULL').bind(userId, now)]
      : []),
  ]);
  return { changed: (recorded?.meta.changes ?? 0) === 1 };
}

/** One consent as GET /api/legal/consent lists it. */
export async function consentOf(ctx: ServiceContext, userId: string, kind: TConsentKind): Promise<TConsent> {
  const { items } = await listConsents(ctx, userId);
  return items.find((c) => c.id === kind)!;
}

/** The history of changes, oldest first (the export and the tests read it). */
export async function listConsentChanges(ctx: ServiceContext, userId: string) {
  return ctx.db.select().from(schema.consentChanges).where(eq(schema.consentChanges.user_id, userId)).orderBy(schema.consentChanges.created_at);
}

/** GET /api/legal/consent/history: the caller's changes, newest first. */
export async function consentHistory(ctx: ServiceContext, userId: string): Promise<TConsentHistory> {
  const rows = await listConsentChanges(ctx, userId);
  return { items: rows.reverse().map((r) => ({ kind: r.kind, old: r.old_granted, new: r.new_granted, at: r.created_at.toISOString() })) };
}
