import { env } from 'cloudflare:test';
import type { ContactInvitationJob } from '../../src/contracts/jobs';
import { sendContactInvitation } from '../../src/domains/contacts/send-invitation';
import { api } from './api';
import { servicesAt } from './canary';
import { captureQueues } from './messages';
import { callerAs } from './trpc';

type Persona = { id: string; token: string; email: string };

/**
 * `owner` invites `email` through tRPC with the queues captured, then the JOBS consumer sends the
 * invitation as it would: returns the contact and the token the email carried.
 */
export async function inviteContact(owner: Persona, email: string) {
  const { result, jobs } = await captureQueues(async () => (await callerAs(owner.id)).contacts.add({ email }));
  const job = jobs.find((j) => j.body.type === 'contact_invitation')?.body as ContactInvitationJob | undefined;
  if (!job) throw new Error('no contact invitation was queued');
  await sendContactInvitation(servicesAt(Date.now()), job);
  return { contact: result, token: contactInvitationToken(await lastInvitationText(email)) };
}

export async function lastInvitationMail(email: string) {
  return env.DB.prepare(
    "SELECT * FROM outbox_messages WHERE address = ? AND subject LIKE '%wants to add you as a contact%' ORDER BY created_at DESC, rowid DESC LIMIT 1",
  )
    .bind(email)
    .first<Record<string, any>>();
}

async function lastInvitationText(email: string) {
  const row = await lastInvitationMail(email);
  if (!row) throw new Error(`no contact invitation in the outbox for ${email}`);
  return row.text as string;
}

export const contactInvitationToken = (text: string) => /\/contacts\/accept\/([A-Za-z0-9_-]+)/.exec(text)![1]!;

/** `owner` and `other` become accepted contacts (owner invited, other accepted): returns the contact id. */
export async function contactsOf(owner: Persona, other: Persona): Promise<string> {
  const { contact, token } = await inviteContact(owner, other.email);
  const accepted = await api('POST', '/api/contacts/accept', { token: other.token, json: { token } });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${accepted.text}`);
  return contact.id;
}
