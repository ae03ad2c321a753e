import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { humanTime } from '../../lib/human-time';

/**
 * The warning a passed dead-man's switch sends before it deletes anything (docs/decisions/canary-engine.md
 * "The dead-man's switch warns first"). It has the deletion's own id, so each deletion has exactly one, and
 * the deletion is carried out only a full final day after a channel accepted it: a person whose phone was
 * off or whose email provider was down does not lose their account to our silence.
 */
export const DEADMAN_NOTICE_KIND = 'deadman_deletion_scheduled';

/** Between the warning reaching the owner and the deletion: one last day in which a check-in cancels it. */
export const DEADMAN_FINAL_NOTICE_MS = 24 * 3600_000;

export interface DeadmanDeletion {
  id: string;
  userId: string;
  /** The switch's hours (null: not known any more, for a deletion scheduled before warnings existed). */
  hours: number | null;
  deletionDate: Date;
  at: Date;
}

/** The notice's insert, for the batch that schedules the deletion (so one never exists without the other). */
export function deletionNoticeInsert(ctx: ServiceContext, d: DeadmanDeletion) {
  return ctx.db
    .insert(schema.ownerNotices)
    .values({
      id: d.id,
      user_id: d.userId,
      kind: DEADMAN_NOTICE_KIND,
      subject: 'Your Afterword account will be deleted unless you check in',
      text:
        `No check-in has reached us for ${d.hours === null ? 'the time you chose' : `${d.hours} hours`}, so your dead-man's switch has passed. Your account and everything in it — ` +
        `messages not yet released, files, recordings, guardians and history — will be deleted after ${humanTime(d.deletionDate.getTime())}, ` +
        `and never sooner than a day after this message reaches you. One check-in cancels it: ${appOrigin(ctx.env)}/app/canary-status`,
      link: `${appOrigin(ctx.env)}/app/canary-status`,
      status: 'pending',
      due_at: d.at,
      created_at: d.at,
    })
    .onConflictDoNothing();
}

/**
 * When the deletion's warning reached the owner (null: not yet — it is still being tried, or was never
 * written because the deletion was scheduled before warnings existed; `missing` says which).
 */
export async function deletionNoticeReachedAt(ctx: ServiceContext, deletionId: string): Promise<{ sentAt: number | null; missing: boolean }> {
  const [notice] = await ctx.db
    .select({ status: schema.ownerNotices.status, sent_at: schema.ownerNotices.sent_at })
    .from(schema.ownerNotices)
    .where(eq(schema.ownerNotices.id, deletionId));
  if (!notice) return { sentAt: null, missing: true };
  return { sentAt: notice.status === 'sent' && notice.sent_at ? notice.sent_at.getTime() : null, missing: false };
}
