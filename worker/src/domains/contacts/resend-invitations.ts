import { schema } from '@afterword/db';
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { ContactInvitationJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { hashSecret, newSecretToken } from '../../lib/secrets';

/**
 * An invitation no channel took this long after its send was queued is sent again. Longer than a queued job takes
 * through its retries while the email provider has a short outage; a job still retrying then finds its token
 * replaced and sends nothing (send-invitation.ts), so the invited person gets one working link.
 */
export const INVITATION_RESEND_AFTER_MS = 60 * 60_000;
/** At most this many invitations are sent again by one cron run; the rest follow in the next minutes. */
const RESENDS_PER_RUN = 50;

/** Hands the send of an invitation's email with this token to the JOBS queue. */
export async function queueInvitation(ctx: ServiceContext, contactId: string, token: string) {
  await ctx.env.JOBS.send({ type: 'contact_invitation', contact_id: contactId, token } satisfies ContactInvitationJob, { contentType: 'json' });
}

/**
 * Every minute (cron): the contact invitations still unsent an hour after their send was queued — the request died
 * between its write and the queue, the queue refused the job, or the job died after its retries — are sent again.
 * Only the token's hash is stored, so the link cannot be sent as it was: each gets a new token, in a write that
 * holds only while the invitation is still invited and unsent and its token the one read (two runs at once resend
 * it once), and then its job. A queue that refuses again leaves it for the next hour.
 */
export async function resendUnsentInvitations(ctx: ServiceContext): Promise<{ resent: number }> {
  const now = ctx.now();
  const unsent = await ctx.db
    .select({ id: schema.contacts.id, hash: schema.contacts.invite_token_hash })
    .from(schema.contacts)
    .where(
      and(
        eq(schema.contacts.status, 'invited'),
        isNull(schema.contacts.invitation_sent_at),
        lte(schema.contacts.invitation_queued_at, new Date(now.getTime() - INVITATION_RESEND_AFTER_MS)),
      ),
    )
    .limit(RESENDS_PER_RUN);
  let resent = 0;
  for (const invitation of unsent) {
    if (!invitation.hash) continue;
    const token = newSecretToken();
    const renewed = await ctx.db
      .update(schema.contacts)
      .set({ invite_token_hash: await hashSecret(token), invitation_queued_at: now })
      .where(
        and(
          eq(schema.contacts.id, invitation.id),
          eq(schema.contacts.status, 'invited'),
          isNull(schema.contacts.invitation_sent_at),
          eq(schema.contacts.invite_token_hash, invitation.hash),
        ),
      )
      .returning({ id: schema.contacts.id });
    if (!renewed.length) continue;
    try {
      await queueInvitation(ctx, invitation.id, token);
      resent += 1;
    } catch (err) {
      log.error('enqueue failed; the contact invitation is sent again in an hour', { queue: 'JOBS', type: 'contact_invitation', error: String(err) });
    }
  }
  if (resent) log.warn('contact invitations sent again', { resent });
  return { resent };
}
