import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { ContactInvitationJob } from '../src/contracts/jobs';
import { INVITATION_RESEND_AFTER_MS, resendUnsentInvitations } from '../src/domains/contacts/resend-invitations';
import { sendContactInvitation } from '../src/domains/contacts/send-invitation';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { contactInvitationToken, inviteContact, lastInvitationMail } from './helpers/contacts';
import { captureQueues } from './helpers/messages';

/**
 * A contact invitation whose email never went out — its job never reached the queue — is sent again by the
 * every-minute cron an hour on, under a new token (its link cannot be sent as it was: only its hash is stored).
 * Its own workerd (vitest.config.mts OWN_WORKERD): the cron's look reads every account's unsent invitations.
 */
const contactRow = (id: string) => env.DB.prepare('SELECT * FROM contacts WHERE id = ?').bind(id).first<Record<string, any>>();
const invitationJobs = (jobs: { body: Record<string, unknown> }[]) =>
  jobs.map((j) => j.body).filter((b): b is ContactInvitationJob => b.type === 'contact_invitation');

/** The owner invites `email` while the JOBS queue refuses every message: the invitation is written, its email never queued. */
async function inviteWhileTheQueueIsDown(owner: { token: string }, email: string) {
  const refuse = vi.spyOn(env.JOBS, 'send').mockRejectedValue(new Error('the queue is down'));
  try {
    const res = await api('POST', '/api/contacts', { token: owner.token, json: { email } });
    expect(res.status).toBe(201);
    return res.data as { id: string };
  } finally {
    refuse.mockRestore();
  }
}

/** The cron's look at `at`, with the queue captured: the jobs it sent. */
async function cronAt(at: number) {
  const { result, jobs } = await captureQueues(() => resendUnsentInvitations(servicesAt(at)));
  return { ...result, jobs: invitationJobs(jobs) };
}

describe('a contact invitation whose email job never reached the queue', () => {
  it('is sent again an hour on, with a new link the invited person can accept', async () => {
    const [owner, invitee] = await Promise.all([signedInUser(), signedInUser()]);
    const invitation = await inviteWhileTheQueueIsDown(owner, invitee.email);
    const written = await contactRow(invitation.id);
    expect(written!.invitation_sent_at).toBeNull();
    expect(await lastInvitationMail(invitee.email)).toBeNull();

    // Not before the hour has passed: a job may still be on its way.
    const invitedAt = Number(written!.invited_at);
    expect((await cronAt(invitedAt + INVITATION_RESEND_AFTER_MS - 60_000)).jobs.filter((j) => j.contact_id === invitation.id)).toEqual([]);

    const due = await cronAt(invitedAt + INVITATION_RESEND_AFTER_MS);
    const [job] = due.jobs.filter((j) => j.contact_id === invitation.id);
    expect(job).toBeDefined();
    await sendContactInvitation(servicesAt(invitedAt + INVITATION_RESEND_AFTER_MS), job!);
    const mail = await lastInvitationMail(invitee.email);
    expect(mail).not.toBeNull();
    expect((await contactRow(invitation.id))!.invitation_sent_at).not.toBeNull();

    const accepted = await api('POST', '/api/contacts/accept', { token: invitee.token, json: { token: contactInvitationToken(mail!.text) } });
    expect(accepted.status).toBe(200);
    expect((await contactRow(invitation.id))!.status).toBe('accepted');
  });

  it('is sent again once when two looks run at once', async () => {
    const owner = await signedInUser();
    const invitation = await inviteWhileTheQueueIsDown(owner, `someone-${crypto.randomUUID()}@example.com`);
    const at = Number((await contactRow(invitation.id))!.invited_at) + INVITATION_RESEND_AFTER_MS;
    const { jobs } = await captureQueues(() => Promise.all([resendUnsentInvitations(servicesAt(at)), resendUnsentInvitations(servicesAt(at))]));
    expect(invitationJobs(jobs).filter((j) => j.contact_id === invitation.id)).toHaveLength(1);
  });

  it('waits another hour when the queue refuses the resend too', async () => {
    const owner = await signedInUser();
    const invitation = await inviteWhileTheQueueIsDown(owner, `someone-${crypto.randomUUID()}@example.com`);
    const at = Number((await contactRow(invitation.id))!.invited_at) + INVITATION_RESEND_AFTER_MS;
    const refuse = vi.spyOn(env.JOBS, 'send').mockRejectedValue(new Error('the queue is down'));
    try {
      await resendUnsentInvitations(servicesAt(at));
    } finally {
      refuse.mockRestore();
    }
    expect((await cronAt(at + 60_000)).jobs.filter((j) => j.contact_id === invitation.id)).toEqual([]);
    expect((await cronAt(at + INVITATION_RESEND_AFTER_MS)).jobs.filter((j) => j.contact_id === invitation.id)).toHaveLength(1);
  });

  it("sends nothing from the first token's job once a resend replaced it", async () => {
    const owner = await signedInUser();
    const email = `someone-${crypto.randomUUID()}@example.com`;
    // The first try's job was queued but is late (its provider down); the cron sends again under a new token.
    const { jobs } = await captureQueues(() => api('POST', '/api/contacts', { token: owner.token, json: { email } }));
    const [late] = invitationJobs(jobs);
    const at = Number((await contactRow(late!.contact_id))!.invited_at) + INVITATION_RESEND_AFTER_MS;
    const [fresh] = (await cronAt(at)).jobs.filter((j) => j.contact_id === late!.contact_id);
    expect(await sendContactInvitation(servicesAt(at), late!)).toBe('none');
    expect(await sendContactInvitation(servicesAt(at), fresh!)).toBe('sent');
    const mail = await lastInvitationMail(email);
    expect(contactInvitationToken(mail!.text)).toBe(fresh!.token);
  });
});

describe('an invitation whose email went out but whose sending was never recorded', () => {
  it('is sent again as a new email, not dropped as a repeat of the first', async () => {
    const [owner, invitee] = await Promise.all([signedInUser(), signedInUser()]);
    const { contact, token: first } = await inviteContact(owner, invitee.email);
    // The channel took the email, and the write that records it was lost (its job died after its retries).
    await env.DB.prepare('UPDATE contacts SET invitation_sent_at = NULL WHERE id = ?').bind(contact.id).run();
    const at = Number((await contactRow(contact.id))!.invitation_queued_at) + INVITATION_RESEND_AFTER_MS;
    const [fresh] = (await cronAt(at)).jobs.filter((j) => j.contact_id === contact.id);
    expect(await sendContactInvitation(servicesAt(at), fresh!)).toBe('sent');
    const mail = await lastInvitationMail(invitee.email);
    expect(contactInvitationToken(mail!.text)).toBe(fresh!.token);
    expect(fresh!.token).not.toBe(first);
  });
});

describe('an invitation that went out', () => {
  it('is never sent again, nor one answered', async () => {
    const [owner, invitee, other] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const { contact } = await inviteContact(owner, invitee.email);
    const { contact: answered, token } = await inviteContact(owner, other.email);
    expect((await api('POST', '/api/contacts/decline', { token: other.token, json: { token } })).status).toBe(200);
    const later = (await cronAt(Date.now() + 7 * 24 * 60 * 60_000)).jobs.map((j) => j.contact_id);
    expect(later).not.toContain(contact.id);
    expect(later).not.toContain(answered.id);
  });
});
