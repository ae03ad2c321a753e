import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ZAssignGuardianInput } from '../src/contracts/guardian';
import { addContact } from '../src/domains/contacts/add-contact';
import { assignGuardian } from '../src/domains/guardian/manage-guardians';
import { keyReusedDetail } from '../src/lib/create-retry';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';

/**
 * A guardian's or a contact's invitation sent again after its answer was lost (docs/decisions/create-retries.md):
 * with the same idempotency_key it answers with the invitation the first try wrote, not "already invited".
 */
const invite = {
  guardian: (token: string, email: string, key?: string) =>
    api('POST', '/api/guardian/assign', { token, json: { email, consent: true, ...(key ? { idempotency_key: key } : {}) } }),
  contact: (token: string, email: string, key?: string) => api('POST', '/api/contacts', { token, json: { email, ...(key ? { idempotency_key: key } : {}) } }),
};
const rowsOf = (kind: keyof typeof invite, ownerId: string) =>
  env.DB.prepare(`SELECT id, email FROM ${kind === 'guardian' ? 'guardians' : 'contacts'} WHERE owner_id = ?`)
    .bind(ownerId)
    .all<{ id: string; email: string }>()
    .then((r) => r.results);
const someone = () => `invitee-${crypto.randomUUID()}@example.com`;

describe.each(['guardian', 'contact'] as const)('a %s invitation sent again with the same idempotency_key', (kind) => {
  it('answers the owner with the invitation the first call wrote, and writes no second', async () => {
    const owner = await signedInUser();
    const [email, key] = [someone(), crypto.randomUUID()];
    const first = await invite[kind](owner.token, email, key);
    const again = await invite[kind](owner.token, email, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.data).toEqual(first.data);
    expect(await rowsOf(kind, owner.id)).toEqual([{ id: first.data.id, email }]);
  });

  it('writes one invitation when the tries race each other', async () => {
    const owner = await signedInUser();
    const [email, key] = [someone(), crypto.randomUUID()];
    const answers = await Promise.all(Array.from({ length: 5 }, () => invite[kind](owner.token, email, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    const rows = await rowsOf(kind, owner.id);
    expect(rows).toHaveLength(1);
    expect(new Set(answers.map((a) => a.data.id))).toEqual(new Set([rows[0]!.id]));
  });

  it('refuses the key with another address (409), writing nothing', async () => {
    const owner = await signedInUser();
    const key = crypto.randomUUID();
    const first = await invite[kind](owner.token, someone(), key);
    const other = await invite[kind](owner.token, someone(), key);
    expect(other.status).toBe(409);
    expect(other.data).toEqual({ detail: keyReusedDetail(`${kind} invitation`) });
    expect((await rowsOf(kind, owner.id)).map((r) => r.id)).toEqual([first.data.id]);
  });

  it('still says "already invited" to a second invitation of the address without the key', async () => {
    const owner = await signedInUser();
    const email = someone();
    expect((await invite[kind](owner.token, email, crypto.randomUUID())).status).toBe(201);
    const second = await invite[kind](owner.token, email);
    expect(second.status).toBe(409);
    expect(second.data.detail).toContain(`${email} is already invited`);
  });
});

describe('a guardian invitation sent again', () => {
  it('answers with the invitation its first call wrote even after the owner withdrew their guardian consent between them', async () => {
    const owner = await signedInUser();
    const [email, key] = [someone(), crypto.randomUUID()];
    const first = await invite.guardian(owner.token, email, key);
    expect((await api('POST', '/api/legal/consent/guardian', { token: owner.token, json: { consent: false } })).status).toBe(200);
    const again = await invite.guardian(owner.token, email, key);
    expect(again.status).toBe(201);
    expect(again.data.id).toBe(first.data.id);
    // A new invitation is still refused while the consent is withdrawn.
    expect((await invite.guardian(owner.token, someone(), crypto.randomUUID())).status).toBe(403);
  });

  it("writes one invitation when tries that all looked before any wrote race for an owner's last guardian place (the limit refuses the losers)", async () => {
    const owner = await signedInUser();
    for (let i = 0; i < 4; i++) expect((await invite.guardian(owner.token, someone())).status).toBe(201);
    const me = await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(owner.id).first();
    const input = ZAssignGuardianInput.parse({ email: someone(), consent: true, idempotency_key: crypto.randomUUID() });
    // Each try reads the owner's guardians before any of them writes (their steps interleave in one isolate).
    const answers = await Promise.all(Array.from({ length: 3 }, () => assignGuardian(createServiceContext(env), me as never, input)));
    const rows = (await rowsOf('guardian', owner.id)).filter((r) => r.email === input.email);
    expect(rows).toHaveLength(1);
    expect(answers.map((a) => a.id)).toEqual(Array(3).fill(rows[0]!.id));
  });
});

describe('two contact invitations of one address at once, without a key', () => {
  it('writes one; the others hear 409 "already invited", not a server error', async () => {
    const owner = await signedInUser();
    const me = await env.DB.prepare('SELECT * FROM users WHERE id = ?').bind(owner.id).first();
    const email = someone();
    // Each call reads before any writes (their steps interleave in one isolate): the unique index decides.
    const answers = await Promise.allSettled(Array.from({ length: 3 }, () => addContact(createServiceContext(env), me as never, { email })));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of answers.filter((a) => a.status === 'rejected')) {
      expect(a.reason).toMatchObject({ code: 'CONFLICT', message: `${email} is already invited: remove the invitation to send a new one` });
    }
    expect(await rowsOf('contact', owner.id)).toHaveLength(1);
  });
});
