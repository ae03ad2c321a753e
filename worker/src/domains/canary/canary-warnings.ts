import { schema } from '@afterword/db';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { TCanaryWarning, TCanaryWarnings } from '../../contracts/canary';
import type { ServiceContext } from '../../env';
import { findOwnCanary } from './list-canaries';

/** How many of a canary's notices Canary Status shows. */
const SHOWN = 20;

/**
 * GET /api/canary/{id}/warnings: what the owner was told about their canary and where each notice went
 * (docs/decisions/canary-engine.md, "Warnings on the owner's channels"). 404 when the canary is not theirs.
 */
export async function canaryWarnings(ctx: ServiceContext, userId: string, canaryId: string): Promise<TCanaryWarnings> {
  await findOwnCanary(ctx, userId, canaryId);
  const notices = await ctx.db
    .select()
    .from(schema.ownerNotices)
    .where(and(eq(schema.ownerNotices.user_id, userId), eq(schema.ownerNotices.canary_id, canaryId)))
    .orderBy(desc(schema.ownerNotices.created_at))
    .limit(SHOWN);
  if (!notices.length) return { warnings: [] };
  const tries = await ctx.db
    .select()
    .from(schema.ownerNoticeDeliveries)
    .where(
      inArray(
        schema.ownerNoticeDeliveries.notice_id,
        notices.map((n) => n.id),
      ),
    )
    // A try's attempts share `at`; their ids keep the order they were tried in (owner-notices/send-owner-notice.ts).
    .orderBy(schema.ownerNoticeDeliveries.at, schema.ownerNoticeDeliveries.id);
  return {
    warnings: notices.map(
      (n): TCanaryWarning => ({
        id: n.id,
        kind: n.kind.replace(/^canary_/, '') as TCanaryWarning['kind'],
        subject: n.subject,
        created_at: n.created_at.toISOString(),
        delivered_at: n.sent_at ? n.sent_at.toISOString() : null,
        deliveries: tries
          .filter((t) => t.notice_id === n.id)
          .map((t) => ({ channel: t.channel, address: t.address, ok: t.ok, error: t.error, at: t.at.toISOString() })),
      }),
    ),
  };
}
