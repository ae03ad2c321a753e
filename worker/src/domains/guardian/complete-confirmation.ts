import { schema } from '@afterword/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { makeWishedMemorial } from '../memorials/memorial-wish';
import { setDeathConfirmed } from '../messages/release/set-death-confirmed';
import { fanOutEvent } from '../webhooks/fan-out';
import { deathConfirmedPayload } from '../webhooks/payload';

/** The webhook event id of a confirmation: one delivery per endpoint, however often this runs. */
export const deathEventId = (reportId: string) => `death:${reportId}`;

/**
 * The JOBS consumer of `death_confirmed` (and the reconciler's repair): what follows a confirmation whose
 * flag the confirming batch already set. Death-triggered releases start (setDeathConfirmed re-syncs the
 * clocks of messages with a delay-after-death rule; a sandbox report releases nothing) and the
 * `death_confirmed` webhook goes to the owner's subscribed endpoints (Standard Webhooks, like
 * missed_checkins; sandbox reports' bodies marked `sandbox: true`), and the memorial page the owner wished
 * for is made. Every part is idempotent — a
 * redelivered job re-syncs clocks that find nothing new and adds no delivery — then it is marked done.
 */
export async function completeDeathConfirmation(ctx: ServiceContext, reportId: string): Promise<'done' | 'none'> {
  const [r] = await ctx.db.select().from(schema.deathReports).where(eq(schema.deathReports.id, reportId)).limit(1);
  if (r?.status !== 'confirmed' || !r.closed_at) return 'none';
  if (!r.sandbox) {
    await setDeathConfirmed(ctx, r.owner_id);
    // The memorial page the owner asked for (domains/memorials/memorial-wish.ts); never for a sandbox report.
    await makeWishedMemorial(ctx, r.owner_id);
  }
  const confirmedAt = r.closed_at;
  await fanOutEvent(ctx, {
    userId: r.owner_id,
    event: 'death_confirmed',
    eventId: deathEventId(r.id),
    sandbox: r.sandbox,
    payload: (sandbox) =>
      deathConfirmedPayload(
        { user_id: r.owner_id, report_id: r.id, reported_at: r.opened_at, window_ends_at: r.window_ends_at ?? confirmedAt, confirmed_at: confirmedAt },
        { sandbox },
      ),
  });
  await ctx.db
    .update(schema.deathReports)
    .set({ effects_done_at: ctx.now() })
    .where(and(eq(schema.deathReports.id, r.id), isNull(schema.deathReports.effects_done_at)));
  log.info('death confirmation completed', { report_id: r.id, owner_id: r.owner_id, sandbox: r.sandbox });
  return 'done';
}
