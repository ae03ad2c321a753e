import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { MAX_CONTACT_INVITATIONS_PER_DAY } from '../src/contracts/contacts';
import { hashSecret } from '../src/lib/secrets';
import { api, signedInUser } from './helpers/api';
import { contactsOf, inviteContact, lastInvitationMail } from './helpers/contacts';

/** Contacts over HTTP and tRPC with owner, invitee and outsider personas (docs/decisions/contacts.md). */
const add = (token: string, email: string) => api('POST', '/api/contacts', { token, json: { email } });
const contactRow = (id: string) => env.DB.prepare('SELECT * FROM contacts WHERE id = ?').bind(id).first<Record<string, any>>();

describe('inviting a contact by email', () => {
  it('answers exactly the same whether or not the address has an account (no enumeration)', async () => {
    const owner = await signedInUser();
    const known = await signedInUser();
    const a = await add(owner.token, known.email);
    const b = await add(owner.token, `nobody-${crypto.randomUUID()}@example.com`);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([...a.headers.keys()].sort()).toEqual([...b.headers.keys()].sort());
    const blind = (d: Record<string, unknown>) => ({ ...d, id: 0, email: 0, invited_at: 0 });
    expect(blind(a.data)).toEqual(blind(b.data));
    expect(a.data).toEqual({
      id: expect.any(String),
      status: 'invited',
      direction: 'sent',
      email: known.email,
      name: null,
      user_id: null,
      invited_at: expect.any(String),
      responded_at: null,
    });
  });

  it('sends the invitation email either way, with a link whose token is stored only as its SHA-256', async () => {
    const owner = await signedInUser();
    const known = await signedInUser();
    const stranger = `stranger-${crypto.randomUUID()}@example.com`;
    for (const [email, account] of [
      [known.email, known.id],
      [stranger, null],
    ] as const) {
      const { contact, token } = await inviteContact(owner, email);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const mail = await lastInvitationMail(email);
      expect(mail).toMatchObject({ channel: 'email', address: email, recipient_user_id: account });
      expect(mail!.text).toContain(`/contacts/accept/${token}`);
      expect(mail!.text).toContain(owner.email);
      const row = await contactRow(contact.id);
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row).toMatchObject({ invite_token_hash: await hashSecret(token), status: 'invited', invitation_sent_at: expect.any(Number) });
    }
  });

  it('refuses your own address (422), an address already invited (409), and a bad email (422)', async () => {
    const owner = await signedInUser();
    const self = await add(owner.token, owner.email.toUpperCase());
    expect(self.status).toBe(422);
    expect(self.data.detail[0].loc).toEqual(['body', 'email']);
    expect((await add(owner.token, 'not an email')).status).toBe(422);
    const email = `twice-${crypto.randomUUID()}@example.com`;
    expect((await add(owner.token, email)).status).toBe(201);
    const again = await add(owner.token, email);
    expect(again.status).toBe(409);
    expect(again.data.detail).toMatch(/already invited/);
  });

  it('refuses a 21st invitation within 24 hours (429 with Retry-After), so removing and re-adding is not a mailer', async () => {
    const owner = await signedInUser();
    for (let i = 0; i < MAX_CONTACT_INVITATIONS_PER_DAY; i++) {
      const res = await add(owner.token, `many-${i}-${crypto.randomUUID()}@example.com`);
      expect(res.status).toBe(201);
      // Withdrawn at once: what counts is what was sent.
      expect((await api('DELETE', `/api/contacts/${res.data.id}`, { token: owner.token })).status).toBe(200);
    }
    const refused = await add(owner.token, `one-more-${crypto.randomUUID()}@example.com`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('answering an invitation', () => {
  it('links both accounts once the invitee accepts: each lists the other by name and user id', async () => {
    const owner = await signedInUser();
    const invitee = await signedInUser();
    const { contact, token } = await inviteContact(owner, invitee.email);
    const accepted = await api('POST', '/api/contacts/accept', { token: invitee.token, json: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.data).toEqual({ id: contact.id, status: 'accepted', inviter_name: owner.email });
    expect((await contactRow(contact.id))!.invite_token_hash).toBeNull();
    const notice = await env.DB.prepare("SELECT subject FROM owner_notices WHERE user_id = ? AND kind = 'contact_accepted'").bind(owner.id).first();
    expect(notice).toEqual({ subject: `${invitee.email} accepted your contact invitation` });

    const mine = await api('GET', '/api/contacts', { token: owner.token });
    expect(mine.data).toEqual([
      expect.objectContaining({ id: contact.id, status: 'accepted', direction: 'sent', name: invitee.email, user_id: invitee.id, email: invitee.email }),
    ]);
    const theirs = await api('GET', '/api/contacts', { token: invitee.token });
    expect(theirs.data).toEqual([expect.objectContaining({ id: contact.id, status: 'accepted', direction: 'received', name: owner.email, user_id: owner.id })]);

    // Single use.
    const reused = await api('POST', '/api/contacts/accept', { token: invitee.token, json: { token } });
    expect(reused.status).toBe(404);
    expect(reused.data.detail).toMatch(/invalid, or it was already answered or withdrawn/);
  });

  it('accepts with whatever account holds the link, refuses your own link (422) and a second link between contacts (409)', async () => {
    const owner = await signedInUser();
    const invitee = await signedInUser();
    const { token } = await inviteContact(owner, `other-address-${crypto.randomUUID()}@example.com`);
    const own = await api('POST', '/api/contacts/accept', { token: owner.token, json: { token } });
    expect(own.status).toBe(422);
    expect((await api('POST', '/api/contacts/accept', { token: invitee.token, json: { token } })).status).toBe(200);
    const back = await inviteContact(invitee, owner.email);
    const twice = await api('POST', '/api/contacts/accept', { token: owner.token, json: { token: back.token } });
    expect(twice.status).toBe(409);
    expect(twice.data.detail).toMatch(/already contacts/);
  });

  it('declines: the inviter sees the address declined, and the invitee lists nothing', async () => {
    const owner = await signedInUser();
    const invitee = await signedInUser();
    const { contact, token } = await inviteContact(owner, invitee.email);
    const declined = await api('POST', '/api/contacts/decline', { token: invitee.token, json: { token } });
    expect(declined.data).toEqual({ id: contact.id, status: 'declined', inviter_name: owner.email });
    const mine = await api('GET', '/api/contacts', { token: owner.token });
    expect(mine.data).toEqual([expect.objectContaining({ id: contact.id, status: 'declined', name: null, user_id: null, email: invitee.email })]);
    expect((await api('GET', '/api/contacts', { token: invitee.token })).data).toEqual([]);
  });

  it('a withdrawn invitation’s link stops working', async () => {
    const owner = await signedInUser();
    const invitee = await signedInUser();
    const { contact, token } = await inviteContact(owner, invitee.email);
    expect((await api('DELETE', `/api/contacts/${contact.id}`, { token: owner.token })).status).toBe(200);
    expect((await api('POST', '/api/contacts/accept', { token: invitee.token, json: { token } })).status).toBe(404);
  });
});

describe('removing a contact', () => {
  it('either side removes it, for both; an outsider gets 404 and changes nothing', async () => {
    const owner = await signedInUser();
    const invitee = await signedInUser();
    const outsider = await signedInUser();
    const id = await contactsOf(owner, invitee);
    const foreign = await api('DELETE', `/api/contacts/${id}`, { token: outsider.token });
    expect(foreign.status).toBe(404);
    expect(foreign.data).toEqual({ detail: 'Contact not found' });
    expect(await contactRow(id)).not.toBeNull();
    expect((await api('DELETE', `/api/contacts/${id}`, { token: invitee.token })).status).toBe(200);
    expect((await api('GET', '/api/contacts', { token: owner.token })).data).toEqual([]);
    expect((await api('GET', '/api/contacts', { token: invitee.token })).data).toEqual([]);
  });
});

describe('reachability of a picked recipient', () => {
  it('tells an accepted contact only whether each method can reach them, and updates as they add a device and a phone', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    await contactsOf(owner, recipient);
    const before = await api('GET', `/api/contacts/reachability/${recipient.id}`, { token: owner.token });
    expect(before.status).toBe(200);
    expect(before.data).toEqual({ user_id: recipient.id, name: recipient.email, methods: { email: true, sms: false, call: false, push: false } });

    await env.DB.prepare('UPDATE users SET phone_e164 = ?, phone_verified_at = ? WHERE id = ?').bind('+15555550100', Date.now(), recipient.id).run();
    await env.DB.prepare("INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, 'k', 'a', ?)")
      .bind(crypto.randomUUID(), recipient.id, `https://push.example.net/${crypto.randomUUID()}`, Date.now())
      .run();
    const after = await api('GET', `/api/contacts/reachability/${recipient.id}`, { token: owner.token });
    expect(after.data).toEqual({ user_id: recipient.id, name: recipient.email, methods: { email: true, sms: true, call: true, push: true } });
    expect(after.text).not.toContain('5555550100');
    // Mutual: the recipient may ask about the owner too.
    expect((await api('GET', `/api/contacts/reachability/${owner.id}`, { token: recipient.token })).status).toBe(200);
  });

  it('is 404 for anyone who is not an accepted contact: an outsider, an invitation not yet accepted, yourself', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const invited = await signedInUser();
    await inviteContact(owner, invited.email);
    for (const id of [outsider.id, invited.id, owner.id, crypto.randomUUID()]) {
      const res = await api('GET', `/api/contacts/reachability/${id}`, { token: owner.token });
      expect(res.status, id).toBe(404);
      expect(res.data).toEqual({ detail: 'Contact not found' });
    }
  });
});
