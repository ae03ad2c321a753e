import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ZGuardedOwnerView, ZLadderView } from '../src/contracts/guardian';
import { deleteAccount } from '../src/domains/account/delete-account';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { guardianOf, invitationToken, ladderSteps, sendPendingGuardianNotices } from './helpers/guardian';
import { createMessageFor } from './helpers/messages';
import { callerAs } from './helpers/trpc';

/** The guardian routes over HTTP, with owner, guardian and outsider personas (docs/decisions/guardian-ladder.md). */
const assign = (token: string, json: unknown) => api('POST', '/api/guardian/assign', { token, json });
const locs = (data: { detail: { loc: unknown[] }[] }) => data.detail.map((d) => d.loc.join('.'));

describe('inviting guardians', () => {
  it('invites by email with consent: 201 invited, an email with a single-use accept link, only the token’s hash stored', async () => {
    const owner = await signedInUser();
    const guardian = await signedInUser();
    const res = await assign(owner.token, { email: `  ${guardian.email.toUpperCase()} `, consent: true });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({
      id: expect.any(String),
      email: guardian.email,
      status: 'invited',
      name: null,
      invited_at: expect.any(String),
      responded_at: null,
      ended_at: null,
    });
    await sendPendingGuardianNotices();
    const token = await invitationToken(guardian.email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await env.DB.prepare('SELECT * FROM guardians WHERE id = ?').bind(res.data.id).first<Record<string, any>>();
    expect(JSON.stringify(row)).not.toContain(token);
    const mail = await env.DB.prepare('SELECT * FROM outbox_messages WHERE address = ? ORDER BY created_at DESC LIMIT 1')
      .bind(guardian.email)
      .first<Record<string, any>>();
    expect(mail).toMatchObject({ channel: 'email', recipient_user_id: guardian.id });
    expect(mail!.text).toContain(`/guardian/accept/${token}`);

    const accepted = await api('POST', '/api/guardian/accept', { token: guardian.token, json: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.data).toEqual({ id: res.data.id, status: 'active', owner_name: owner.email });
    // Single use.
    const reused = await api('POST', '/api/guardian/accept', { token: guardian.token, json: { token } });
    expect(reused.status).toBe(404);
    expect(reused.data.detail).toMatch(/invalid, or it was already answered or withdrawn/);
    const list = await api('GET', '/api/guardian/list', { token: owner.token });
    expect(list.data).toEqual([expect.objectContaining({ id: res.data.id, status: 'active', name: guardian.email, responded_at: expect.any(String) })]);
    expect((await ladderSteps(owner.id)).map((s) => s.kind)).toEqual(['guardian_invited', 'guardian_accepted']);
  });

  it('answers the same whether or not the address has an account (no enumeration)', async () => {
    const owner = await signedInUser();
    const known = await signedInUser();
    const a = await assign(owner.token, { email: known.email, consent: true });
    const b = await assign(owner.token, { email: `nobody-${crypto.randomUUID()}@example.com`, consent: true });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(Object.keys(a.data).sort()).toEqual(Object.keys(b.data).sort());
    expect({ ...a.data, id: 0, email: 0, invited_at: 0 }).toEqual({ ...b.data, id: 0, email: 0, invited_at: 0 });
  });

  it('refuses bad input: consent not true, a bad email, yourself (422); a duplicate (409); a sixth guardian (403)', async () => {
    const owner = await signedInUser();
    for (const [body, loc] of [
      [{ email: 'a@example.com', consent: false }, 'body.consent'],
      [{ email: 'a@example.com' }, 'body.consent'],
      [{ email: 'not an email', consent: true }, 'body.email'],
      [{ consent: true }, 'body.email'],
      [{ email: owner.email.toUpperCase(), consent: true }, 'body.email'],
    ] as const) {
      const res = await assign(owner.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(locs(res.data)).toContain(loc);
    }
    const emails = Array.from({ length: 5 }, (_, i) => `g${i}-${crypto.randomUUID()}@example.com`);
    for (const email of emails) expect((await assign(owner.token, { email, consent: true })).status).toBe(201);
    const dup = await assign(owner.token, { email: emails[0], consent: true });
    expect(dup.status).toBe(409);
    expect(dup.data.detail).toMatch(/already invited/);
    const sixth = await assign(owner.token, { email: `six-${crypto.randomUUID()}@example.com`, consent: true });
    expect(sixth.status).toBe(403);
    expect(sixth.data.detail).toMatch(/5 guardians/);
    // Revoking one frees a place; a revoked address may be invited again.
    const list = (await api('GET', '/api/guardian/list', { token: owner.token })).data as { id: string; email: string }[];
    expect((await api('DELETE', `/api/guardian/${list.find((g) => g.email === emails[0])!.id}`, { token: owner.token })).status).toBe(200);
    expect((await assign(owner.token, { email: emails[0], consent: true })).status).toBe(201);
  });

  it('accept and decline: a bad token 404, your own invitation 422, a second invitation to the same person 409', async () => {
    const owner = await signedInUser();
    const guardian = await signedInUser();
    expect((await api('POST', '/api/guardian/accept', { token: guardian.token, json: { token: 'x'.repeat(43) } })).status).toBe(404);
    expect((await api('POST', '/api/guardian/accept', { token: guardian.token, json: {} })).status).toBe(422);
    expect((await api('POST', '/api/guardian/accept', { json: { token: 'x' } })).status).toBe(401);
    await assign(owner.token, { email: guardian.email, consent: true });
    await sendPendingGuardianNotices();
    const own = await api('POST', '/api/guardian/accept', { token: owner.token, json: { token: await invitationToken(guardian.email) } });
    expect(own.status).toBe(422);
    expect((await api('POST', '/api/guardian/accept', { token: guardian.token, json: { token: await invitationToken(guardian.email) } })).status).toBe(200);
    // The same person reached at another address: the token is the proof, but one person is one vote.
    const other = `other-${crypto.randomUUID()}@example.com`;
    await assign(owner.token, { email: other, consent: true });
    await sendPendingGuardianNotices();
    const second = await api('POST', '/api/guardian/accept', { token: guardian.token, json: { token: await invitationToken(other) } });
    expect(second.status).toBe(409);
    expect(second.data.detail).toMatch(/already a guardian/);
    // A different account may accept it: the email need not match the account.
    const someone = await signedInUser();
    expect((await api('POST', '/api/guardian/accept', { token: someone.token, json: { token: await invitationToken(other) } })).data.status).toBe('active');
  });

  it('revoke: another owner’s guardian is 404, a malformed id 404, revoking twice 409', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const g = await assign(owner.token, { email: `r-${crypto.randomUUID()}@example.com`, consent: true });
    const theirs = await api('DELETE', `/api/guardian/${g.data.id}`, { token: outsider.token });
    expect(theirs.status).toBe(404);
    expect(theirs.data).toEqual({ detail: 'Guardian not found' });
    expect((await api('DELETE', '/api/guardian/nope', { token: owner.token })).status).toBe(404);
    expect((await api('DELETE', `/api/guardian/${g.data.id}`, { token: owner.token })).data.status).toBe('revoked');
    expect((await api('DELETE', `/api/guardian/${g.data.id}`, { token: owner.token })).status).toBe(409);
    expect((await api('GET', '/api/guardian/list', { token: outsider.token })).data).toEqual([]);
  });
});

describe('settings', () => {
  it('defaults to quorum 1, 72 h, asked after 1 miss; validates ranges and a quorum above the guardians', async () => {
    const owner = await signedInUser();
    expect((await api('GET', '/api/guardian/settings', { token: owner.token })).data).toEqual({ quorum: 1, veto_window_hours: 72, ask_after_misses: 1 });
    for (const [json, loc] of [
      [{ veto_window_hours: 23 }, 'body.veto_window_hours'],
      [{ veto_window_hours: 721 }, 'body.veto_window_hours'],
      [{ veto_window_hours: 48.5 }, 'body.veto_window_hours'],
      [{ quorum: 0 }, 'body.quorum'],
      [{ quorum: 6 }, 'body.quorum'],
      [{ quorum: 2 }, 'body.quorum'],
      [{ ask_after_misses: 0 }, 'body.ask_after_misses'],
      [{ surprise: 1 }, 'body'],
    ] as const) {
      const res = await api('PUT', '/api/guardian/settings', { token: owner.token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(locs(res.data).some((l) => l.startsWith(loc))).toBe(true);
    }
    await assign(owner.token, { email: `a-${crypto.randomUUID()}@example.com`, consent: true });
    await assign(owner.token, { email: `b-${crypto.randomUUID()}@example.com`, consent: true });
    const ok = await api('PUT', '/api/guardian/settings', { token: owner.token, json: { quorum: 2, veto_window_hours: 24 } });
    expect(ok.data).toEqual({ quorum: 2, veto_window_hours: 24, ask_after_misses: 1 });
    expect((await api('GET', '/api/guardian/ladder', { token: owner.token })).data.settings).toEqual(ok.data);
  });
});

describe('the guardian’s side', () => {
  it('lists the people who chose me with their ladder state — never their messages', async () => {
    const owner = await signedInUser();
    const guardian = await signedInUser();
    const recipient = await signedInUser();
    const id = await guardianOf(owner, guardian);
    const m = await createMessageFor(owner.token, { recipient_user_id: recipient.id, content: 'a secret for later' });
    const owners = await api('GET', '/api/guardian/owners', { token: guardian.token });
    expect(owners.status).toBe(200);
    expect(owners.data).toHaveLength(1);
    expect(ZGuardedOwnerView.strict().parse(owners.data[0])).toMatchObject({ id, owner_email: owner.email, stage: 'watching', missed: false, report: null });
    expect(JSON.stringify(owners.data)).not.toContain('a secret for later');
    // The message routes are closed to the guardian.
    expect((await api('GET', `/api/message/${m.id}`, { token: guardian.token })).status).toBe(404);
    expect((await api('GET', '/api/message/list', { token: guardian.token })).data).toEqual([]);
    // And the owner's ladder is the owner's: the guardian sees their own (empty) one.
    const theirs = await api('GET', '/api/guardian/ladder', { token: guardian.token });
    expect(ZLadderView.parse(theirs.data)).toMatchObject({ stage: 'no_guardians', transitions: [] });
  });

  it('answers: an outsider’s or a malformed id is 404, a bad answer 422, a report before a miss 409; fine tells the owner', async () => {
    const owner = await signedInUser();
    const guardian = await signedInUser();
    const outsider = await signedInUser();
    const id = await guardianOf(owner, guardian);
    const path = `/api/guardian/${id}/answer`;
    expect((await api('POST', path, { token: outsider.token, json: { answer: 'fine' } })).status).toBe(404);
    expect((await api('POST', path, { token: owner.token, json: { answer: 'fine' } })).status).toBe(404);
    expect((await api('POST', '/api/guardian/zzz/answer', { token: guardian.token, json: { answer: 'fine' } })).status).toBe(404);
    for (const json of [
      {},
      { answer: 'maybe' },
      { answer: 'hold' },
      { answer: 'hold', days: 0 },
      { answer: 'hold', days: 31 },
      { answer: 'hold', days: 1.5 },
    ]) {
      const res = await api('POST', path, { token: guardian.token, json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(Array.isArray(res.data.detail)).toBe(true);
    }
    const early = await api('POST', path, { token: guardian.token, json: { answer: 'report_death' } });
    expect(early.status).toBe(409);
    expect(early.data.detail).toMatch(/has not missed a check-in/);
    const fine = await api('POST', path, { token: guardian.token, json: { answer: 'fine' } });
    expect(fine.data).toMatchObject({ recorded: 'guardian_fine', stage: 'watching' });
    const notice = await env.DB.prepare("SELECT subject FROM owner_notices WHERE user_id = ? AND kind = 'guardian_fine'")
      .bind(owner.id)
      .first<{ subject: string }>();
    expect(notice!.subject).toMatch(/says you are fine/);
  });

  it('resigns: the owner is told, and answers are refused afterwards (403)', async () => {
    const owner = await signedInUser();
    const guardian = await signedInUser();
    const id = await guardianOf(owner, guardian);
    expect((await api('POST', `/api/guardian/${id}/resign`, { token: owner.token })).status).toBe(404);
    expect((await api('POST', `/api/guardian/${id}/resign`, { token: guardian.token })).data).toMatchObject({ status: 'resigned' });
    expect((await api('POST', `/api/guardian/${id}/resign`, { token: guardian.token })).status).toBe(409);
    expect((await api('POST', `/api/guardian/${id}/answer`, { token: guardian.token, json: { answer: 'fine' } })).status).toBe(403);
    expect((await api('GET', '/api/guardian/list', { token: owner.token })).data[0].status).toBe('resigned');
  });

  it('offers the same operations over tRPC (guardian.*)', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id);
    const g = await caller.guardian.assign({ email: `t-${crypto.randomUUID()}@example.com`, consent: true });
    expect((await caller.guardian.list()).map((x) => x.id)).toEqual([g.id]);
    expect((await caller.guardian.ladder()).stage).toBe('no_guardians');
    await caller.guardian.revoke({ id: g.id });
  });
});

describe('account deletion', () => {
  it('removes an owner’s ladder rows, and ends the guardianships of a deleted guardian as resignations', async () => {
    const owner = await signedInUser();
    const guardian = await signedInUser();
    const other = await signedInUser();
    await guardianOf(owner, guardian);
    const guards = await guardianOf(other, owner);
    await api('PUT', '/api/guardian/settings', { token: owner.token, json: { veto_window_hours: 48 } });
    const key = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'x', scopes: ['webhook:death-verification'] } });
    expect((await api('POST', '/api/death-verification/report', { token: key.data.key })).status).toBe(202);

    await deleteAccount(servicesAt(Date.now()), owner.id);
    for (const [table, column] of [
      ['guardians', 'owner_id'],
      ['guardian_settings', 'owner_id'],
      ['death_reports', 'owner_id'],
      ['guardian_holds', 'owner_id'],
      ['ladder_transitions', 'owner_id'],
      ['guardian_notices', 'owner_id'],
      ['guardians', 'guardian_user_id'],
    ] as const) {
      expect(await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).bind(owner.id).first('n'), `${table}.${column}`).toBe(0);
    }
    expect(
      await env.DB.prepare('SELECT count(*) AS n FROM death_report_votes v LEFT JOIN death_reports r ON r.id = v.report_id WHERE r.id IS NULL').first('n'),
    ).toBe(0);
    // The person the deleted account guarded sees a resignation, not a silent gap.
    expect((await api('GET', '/api/guardian/list', { token: other.token })).data).toEqual([
      expect.objectContaining({ id: guards, status: 'resigned', name: null }),
    ]);
    expect((await ladderSteps(other.id)).at(-1)).toMatchObject({ kind: 'guardian_resigned', cause: 'account_deleted' });
  });
});
