import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ZConsent, ZConsents } from '../src/contracts/legal';
import { deleteAccount } from '../src/domains/account/delete-account';
import { createCanary } from '../src/domains/canary/create-canary';
import type { MissedCheckinsEvent } from '../src/contracts/jobs';
import { answerAsGuardian } from '../src/domains/guardian/answer-guardian';
import { askGuardians } from '../src/domains/guardian/ask-guardians';
import { hasConsent } from '../src/domains/legal/consent-state';
import { setConsent as setConsentAt } from '../src/wiring/set-consent';
import { loadEngineMessage } from '../src/domains/messages/release/load-message';
import { releaseMessage } from '../src/domains/messages/release/transitions';
import { reconcileReleases } from '../src/domains/messages/reconcile-releases';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { armOnMissedCheckins } from '../src/domains/messages/release/arm-on-missed-checkins';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { confirmDeathDirectly, guardianOf } from './helpers/guardian';
import { captureQueues, createMessageFor, messageRow } from './helpers/messages';
import { callerAs } from './helpers/trpc';
import { giveVaultItem, uploadVaultFile, withKeys } from './helpers/vault';

/**
 * Consents (docs/decisions/data-rights.md) with owner, recipient, guardian and
 * outsider personas. Releases run with an injected clock days ahead of the real one, so the real
 * ReleaseClock objects (armed by the real clock) never find anything due while a test lasts.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KINDS = ['messages', 'confessions', 'voice', 'video', 'guardian'];

type Persona = Awaited<ReturnType<typeof signedInUser>>;
const setConsent = (who: Persona, kind: string, json: unknown) => api('POST', `/api/legal/consent/${kind}`, { token: who.token, json });
const withdraw = async (who: Persona, kind: string) => expect((await setConsent(who, kind, { consent: false })).status).toBe(200);
const restore = async (who: Persona, kind: string) => expect((await setConsent(who, kind, { consent: true })).status).toBe(200);
const consentsOf = async (who: Persona) => (await api('GET', '/api/legal/consent', { token: who.token })).data.items as { id: string; consent: boolean }[];
const historyOf = async (userId: string) =>
  (
    await env.DB.prepare('SELECT kind, old_granted, new_granted, created_at FROM consent_changes WHERE user_id = ? ORDER BY created_at, rowid')
      .bind(userId)
      .all<{ kind: string; old_granted: number; new_granted: number; created_at: number }>()
  ).results;

async function userRow(id: string): Promise<User> {
  const [u] = await servicesAt(Date.now()).db.select().from(schema.users).where(eq(schema.users.id, id));
  return u!;
}

describe('GET and POST /api/legal/consent', () => {
  it('lists the five kinds for a new account, all granted and never changed', async () => {
    const owner = await signedInUser();
    const res = await api('GET', '/api/legal/consent', { token: owner.token });
    expect(res.status).toBe(200);
    expect(ZConsents.parse(res.data).items).toEqual(KINDS.map((id) => ({ id, consent: true, updated_at: null })));
  });

  it('withdraws and restores one kind, records each change (time, old, new), and a repeat records nothing', async () => {
    const owner = await signedInUser();
    const off = await setConsent(owner, 'voice', { consent: false });
    expect(off.status).toBe(200);
    expect(ZConsent.parse(off.data)).toEqual({ id: 'voice', consent: false, updated_at: expect.any(String) });
    const again = await setConsent(owner, 'voice', { consent: false });
    expect(again.data.updated_at).toBe(off.data.updated_at);
    expect((await consentsOf(owner)).find((c) => c.id === 'voice')).toMatchObject({ consent: false });
    await restore(owner, 'voice');
    const history = await historyOf(owner.id);
    expect(history.map(({ kind, old_granted, new_granted }) => ({ kind, old_granted, new_granted }))).toEqual([
      { kind: 'voice', old_granted: 1, new_granted: 0 },
      { kind: 'voice', old_granted: 0, new_granted: 1 },
    ]);
    expect(history[0]!.created_at).toBe(Date.parse(off.data.updated_at));
    expect(await consentsOf(owner)).toEqual(KINDS.map((id) => expect.objectContaining({ id, consent: true })));
    // The owner reads the same history, newest first; nobody else sees it.
    const read = await api('GET', '/api/legal/consent/history', { token: owner.token });
    expect(read.data.items).toEqual([
      { kind: 'voice', old: false, new: true, at: new Date(history[1]!.created_at).toISOString() },
      { kind: 'voice', old: true, new: false, at: off.data.updated_at },
    ]);
    const outsider = await signedInUser();
    expect((await api('GET', '/api/legal/consent/history', { token: outsider.token })).data).toEqual({ items: [] });
    expect((await api('GET', '/api/legal/consent/history')).status).toBe(401);
  });

  it('answers 404 for an unknown kind and 422 for a bad body, changing nothing', async () => {
    const owner = await signedInUser();
    const unknown = await setConsent(owner, 'telepathy', { consent: false });
    expect(unknown.status).toBe(404);
    expect(unknown.data.detail).toMatch(/Unknown consent kind/);
    for (const body of [{}, { consent: 'false' }, { consent: 0 }, { consent: null }]) {
      const bad = await setConsent(owner, 'messages', body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.data.detail[0].loc).toEqual(['body', 'consent']);
    }
    expect(await historyOf(owner.id)).toEqual([]);
  });

  it('answers the same over tRPC (legal.consents, legal.setConsent), with NOT_FOUND for an unknown kind', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id);
    expect(await caller.legal.setConsent({ id: 'guardian', consent: false })).toMatchObject({ id: 'guardian', consent: false });
    const listed = await caller.legal.consents();
    expect(listed).toEqual((await api('GET', '/api/legal/consent', { token: owner.token })).data);
    await expect(caller.legal.setConsent({ id: 'telepathy', consent: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const http = await api('POST', '/api/trpc/legal.setConsent', { token: owner.token, json: { id: 'guardian', consent: 'yes' } });
    expect(http.status).toBe(422);
  });

  it('needs a session: no token is 401', async () => {
    expect((await api('GET', '/api/legal/consent')).status).toBe(401);
    expect((await api('POST', '/api/legal/consent/messages', { json: { consent: false } })).status).toBe(401);
  });

  it("one user's change never affects another's", async () => {
    const [owner, outsider, recipient] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    for (const kind of KINDS) await withdraw(owner, kind);
    expect((await consentsOf(outsider)).every((c) => c.consent)).toBe(true);
    expect(await historyOf(outsider.id)).toEqual([]);
    const created = await api('POST', '/api/message/create', {
      token: outsider.token,
      json: { recipient_user_id: recipient.id, content: 'still mine to send', delivery_method: 'email', consent: true, rules: [] },
    });
    expect(created.status).toBe(201);
    expect(created.data.paused).toBeNull();
  });

  it('goes with the account: its consents and their history are erased with it', async () => {
    const owner = await signedInUser();
    await withdraw(owner, 'video');
    await deleteAccount(servicesAt(Date.now()), owner.id);
    for (const table of ['user_consents', 'consent_changes'])
      expect(await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(owner.id).first('n'), table).toBe(0);
  });
});

describe('the messages consent', () => {
  it('withdrawn: a new message is refused with 403 and a detail; restored: it is accepted again', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    await withdraw(owner, 'messages');
    const body = { recipient_user_id: recipient.id, content: 'hello', delivery_method: 'email', consent: true, rules: [] };
    const refused = await api('POST', '/api/message/create', { token: owner.token, json: body });
    expect(refused.status).toBe(403);
    expect(refused.data.detail).toMatch(/withdrew your messages consent/);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM messages WHERE sender_id = ?').bind(owner.id).first('n')).toBe(0);
    await restore(owner, 'messages');
    expect((await api('POST', '/api/message/create', { token: owner.token, json: body })).status).toBe(201);
  });

  it('withdrawn: the vault stores and gives nothing (vault items are messages), 403 with a detail', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    await Promise.all([withKeys(owner), withKeys(recipient)]);
    const asset = await uploadVaultFile(owner, [recipient.id]);
    await withdraw(owner, 'messages');
    await expect(uploadVaultFile(owner, [recipient.id])).rejects.toThrow(/403/);
    const assign = await api('POST', '/api/vault/assign', {
      token: owner.token,
      json: { asset_id: asset.asset_id, recipient_user_id: recipient.id, condition_type: 'death_flag' },
    });
    expect(assign.status).toBe(403);
    expect(assign.data.detail).toMatch(/messages consent/);
  });

  it('withdrawn: a scheduled message is not released at its time and shows as paused; restored: it is released under the normal rules', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const deliverAt = Date.now() + 2 * DAY;
    const m = await createMessageFor(owner.token, { recipient_user_id: recipient.id, deliver_at: new Date(deliverAt).toISOString() });
    await withdraw(owner, 'messages');

    const paused = await captureQueues(() => advanceMessage(servicesAt(deliverAt + HOUR), m.id, 'direct'));
    expect(paused.result.nextWakeAt).toBeNull();
    expect(paused.jobs).toEqual([]);
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    const view = await api('GET', `/api/message/${m.id}`, { token: owner.token });
    expect(view.data.message.paused).toBe('consent_withdrawn');
    expect((await api('GET', '/api/message/pending', { token: owner.token })).data[0].paused).toBe('consent_withdrawn');
    const byHand = await api('POST', `/api/messages/deliver/${m.id}`, { token: owner.token });
    expect(byHand.status).toBe(403);
    expect((await messageRow(m.id))!.status).toBe('scheduled');

    await restore(owner, 'messages');
    expect((await api('GET', `/api/message/${m.id}`, { token: owner.token })).data.message.paused).toBeNull();
    const resumed = await captureQueues(() => advanceMessage(servicesAt(deliverAt + 2 * HOUR), m.id, 'direct'));
    expect(['releasing', 'delivered']).toContain((await messageRow(m.id))!.status);
    expect(resumed.jobs.filter((j) => j.queue === 'DELIVERIES')).toHaveLength(1);
  });

  it('withdrawn: a missed check-in arms nothing, a confirmed death releases nothing, and the reconciler leaves the paused messages alone', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const t0 = Date.now() + DAY;
    const canary = await createCanary(servicesAt(t0), await userRow(owner.id), { interval_seconds: DAY / 1000, name: 'daily' });
    const missed = await createMessageFor(owner.token, { recipient_user_id: recipient.id, rules: [{ trigger_type: 'missed_checkins', trigger_value: '1' }] });
    const afterDeath = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'delay_after_death', trigger_value: 0 }],
    });
    await withdraw(owner, 'messages');

    const event: MissedCheckinsEvent = {
      type: 'missed_checkins',
      event_id: crypto.randomUUID(),
      user_id: owner.id,
      canary_id: canary.id,
      misses: 1,
      deadline: new Date(t0 + DAY).toISOString(),
      fired_at: new Date(t0 + DAY).toISOString(),
    };
    const armed = await captureQueues(() => armOnMissedCheckins(servicesAt(t0 + DAY + 1000), event));
    expect(armed.jobs).toEqual([]);
    expect((await messageRow(missed.id))!.status).toBe('scheduled');

    await confirmDeathDirectly(owner.id, t0 + DAY + 2000);
    await captureQueues(() => advanceMessage(servicesAt(t0 + 2 * DAY), afterDeath.id, 'direct'));
    expect((await messageRow(afterDeath.id))!.status).toBe('scheduled');

    // An overdue timer of a paused message would be re-synced (and cleared) if the reconciler picked it.
    await env.DB.prepare('UPDATE messages SET timer_due_at = 1 WHERE id = ?').bind(afterDeath.id).run();
    await captureQueues(() => reconcileReleases(servicesAt(t0 + 2 * DAY)));
    expect((await messageRow(afterDeath.id))!.timer_due_at).toBe(1);

    // Restored: the death confirmed meanwhile releases it; the same event (redelivered) arms the other.
    await restore(owner, 'messages');
    await captureQueues(() => advanceMessage(servicesAt(t0 + 2 * DAY + 1000), afterDeath.id, 'direct'));
    expect(['releasing', 'delivered']).toContain((await messageRow(afterDeath.id))!.status);
    await captureQueues(() => armOnMissedCheckins(servicesAt(t0 + 2 * DAY + 2000), event));
    expect((await messageRow(missed.id))!.status).not.toBe('scheduled');
  });

  it('a withdrawal racing a release wins: the compare-and-set refuses a release read before it', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const deliverAt = Date.now() + DAY;
    const m = await createMessageFor(owner.token, { recipient_user_id: recipient.id, deliver_at: new Date(deliverAt).toISOString() });
    const readBefore = (await loadEngineMessage(servicesAt(deliverAt), m.id))!;
    expect(readBefore.paused).toBe(false);
    await withdraw(owner, 'messages');
    const raced = await captureQueues(() => releaseMessage(servicesAt(deliverAt), readBefore, 'deliver_at', 'Its delivery time came.'));
    expect(raced.result.applied).toBe(false);
    expect(raced.jobs).toEqual([]);
    expect((await messageRow(m.id))!.status).toBe('scheduled');
  });

  it('restored while the sender is still missing check-ins: a missed_checkins rule the current run satisfies arms at once, with its full cancel window', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const t0 = Date.now() + DAY;
    const canary = await createCanary(servicesAt(t0), await userRow(owner.id), { interval_seconds: DAY / 1000, name: 'daily' });
    const m = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '1', expire_window: 2 }],
    });
    await withdraw(owner, 'messages');
    // The canary engine recorded and emitted the miss while messages were paused (its event was dropped).
    const missedAt = t0 + DAY;
    await env.DB.prepare(
      `INSERT INTO canary_transitions (id, canary_id, user_id, cycle_deadline, kind, misses, due_at, fired_at, emitted_at, recorded_by)
       VALUES (?, ?, ?, ?, 'missed', 1, ?, ?, ?, 'alarm')`,
    )
      .bind(crypto.randomUUID(), canary.id, owner.id, missedAt, missedAt, missedAt, missedAt)
      .run();
    expect((await messageRow(m.id))!.status).toBe('scheduled');
    const restoredAt = missedAt + 5 * HOUR;
    await captureQueues(() => setConsentAt(servicesAt(restoredAt), owner.id, 'messages', true));
    expect(await messageRow(m.id)).toMatchObject({ status: 'armed', armed_at: restoredAt, cancel_deadline: restoredAt + 2 * DAY });
  });

  it('withdrawn: a vault item given under the death flag stays paused after a confirmed death, and is released once restored', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    await Promise.all([withKeys(owner), withKeys(recipient)]);
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    await withdraw(owner, 'messages');
    const at = Date.now() + DAY;
    await confirmDeathDirectly(owner.id, at);
    await captureQueues(() => advanceMessage(servicesAt(at + 1000), item.message_id, 'direct'));
    expect((await messageRow(item.message_id))!.status).toBe('scheduled');
    expect((await api('GET', `/api/vault/${item.id}`, { token: owner.token })).data.paused).toBe('consent_withdrawn');
    await restore(owner, 'messages');
    await captureQueues(() => advanceMessage(servicesAt(at + 2000), item.message_id, 'direct'));
    expect(['releasing', 'delivered']).toContain((await messageRow(item.message_id))!.status);
  });
});

describe('the guardian consent', () => {
  it('withdrawn: guardians are not asked, cannot report and no one is invited, while an executor key still reports; restored: they are asked again', async () => {
    const [owner, guardian, other] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const guardianship = await guardianOf(owner, guardian);
    const t0 = Date.now() + DAY;
    const canary = await createCanary(servicesAt(t0), await userRow(owner.id), { interval_seconds: DAY / 1000, name: 'daily' });
    const event = (misses: number): MissedCheckinsEvent => ({
      type: 'missed_checkins',
      event_id: crypto.randomUUID(),
      user_id: owner.id,
      canary_id: canary.id,
      misses,
      deadline: new Date(t0 + DAY).toISOString(),
      fired_at: new Date(t0 + DAY).toISOString(),
    });
    await withdraw(owner, 'guardian');

    expect((await captureQueues(() => askGuardians(servicesAt(t0 + DAY + 1000), event(1)))).result).toBe(0);
    const report = await api('POST', `/api/guardian/${guardianship}/answer`, { token: guardian.token, json: { answer: 'report_death' } });
    expect(report.status).toBe(403);
    expect(report.data.detail).toMatch(/withdrawn their guardian consent/);
    await expect(answerAsGuardian(servicesAt(t0 + DAY + 2000), await userRow(guardian.id), guardianship, { answer: 'report_death' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const invite = await api('POST', '/api/guardian/assign', { token: owner.token, json: { email: other.email, consent: true } });
    expect(invite.status).toBe(403);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM death_reports WHERE owner_id = ?').bind(owner.id).first('n')).toBe(0);

    const key = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'executor', scopes: ['webhook:death-verification'] } });
    const byKey = await api('POST', '/api/death-verification/report', { token: key.data.key });
    expect(byKey.status).toBe(202);

    await restore(owner, 'guardian');
    expect((await captureQueues(() => askGuardians(servicesAt(t0 + DAY + 3000), event(1)))).result).toBe(1);
  });
});

describe('voice, video and confessions', () => {
  it('are stored and shown, and hasConsent reads them for the capabilities that will call it', async () => {
    const owner = await signedInUser();
    for (const kind of ['voice', 'video', 'confessions'] as const) {
      expect(await hasConsent(servicesAt(Date.now()), owner.id, kind)).toBe(true);
      await withdraw(owner, kind);
      expect(await hasConsent(servicesAt(Date.now()), owner.id, kind)).toBe(false);
    }
    expect((await consentsOf(owner)).filter((c) => !c.consent).map((c) => c.id)).toEqual(['confessions', 'voice', 'video']);
  });
});
