import { nameWithEmail } from '../../lib/person-label';
import { schema } from '@afterword/db';
import { and, eq, isNull } from 'drizzle-orm';
import { createChannels, type Channels } from '../../channels/registry';
import type { ContactInvitationJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { log } from '../../lib/logger';
import { hashSecret } from '../../lib/secrets';
import { personName } from './contact-records';

/**
 * The JOBS consumer of a contact invitation: one email to the invited address. Only here, after the
 * request has answered, is the address matched to an account, and only to file the local outbox row in
 * that account's mailbox (docs/decisions/local-outbox.md); real providers ignore it. A job whose token no
 * longer matches the row (answered, removed) sends nothing; a repeat is dropped by the idempotency key.
 */
export async function sendContactInvitation(ctx: ServiceContext, job: ContactInvitationJob, channels?: Channels): Promise<'sent' | 'none'> {
  const [row] = await ctx.db
    .select({ contact: schema.contacts, owner: schema.users })
    .from(schema.contacts)
    .innerJoin(schema.users, eq(schema.users.id, schema.contacts.owner_id))
    .where(
      and(eq(schema.contacts.id, job.contact_id), eq(schema.contacts.status, 'invited'), eq(schema.contacts.invite_token_hash, await hashSecret(job.token))),
    )
    .limit(1);
  if (!row) return 'none';
  const { contact, owner } = row;
  const [account] = await ctx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, contact.email)).limit(1);
  const name = personName(owner);
  const link = `${appOrigin(ctx.env)}/contacts/accept/${job.token}`;
  const result = await (channels ?? createChannels(ctx)).email(
    { email: contact.email },
    {
      // One send per token: an invitation sent again under a new token (resend-invitations.ts) is a new email.
      idempotencyKey: `contact-invitation:${contact.id}:${contact.invite_token_hash!.slice(0, 16)}`,
      recipientUserId: account?.id ?? null,
      subject: `${name} wants to add you as a contact on Afterword`,
      text: [
        `${nameWithEmail(name, owner.email)} wants to add you as a contact on Afterword, a service that delivers the messages people prepare if they stop checking in.`,
        `As contacts, you can each choose the other by name as the recipient of a message or as a guardian. Accepting shows ${name} your name and email; it shows you nothing of theirs but the same. Either of you can remove the other at any time.`,
        `To accept or decline, open this link and sign in (or create an account):\n${link}`,
        `If you do not know ${name}, ignore this email.`,
      ].join('\n\n'),
    },
  );
  if (!result.ok && result.retryable) throw new Error(`contact invitation not delivered: ${result.error}`);
  if (!result.ok) log.warn('contact invitation refused by the channel', { contact_id: contact.id, error: result.error });
  await ctx.db
    .update(schema.contacts)
    .set({ invitation_sent_at: ctx.now() })
    .where(and(eq(schema.contacts.id, contact.id), isNull(schema.contacts.invitation_sent_at)));
  return 'sent';
}
