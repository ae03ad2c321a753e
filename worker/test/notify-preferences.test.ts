import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFY_PREFERENCES } from '../src/contracts/notify';
import { callerAs } from './helpers/trpc';
import { api, signedInUser } from './helpers/api';

const PREFS = {
  methods: ['push', 'email'],
  quiet_hours: { start: '23:30', end: '06:15' },
  alerts: { vaults: false, messages: true, canary_events: true },
};

const verifyPhoneInDb = (userId: string) =>
  env.DB.prepare('UPDATE users SET phone_e164 = ?, phone_verified_at = ? WHERE id = ?').bind('+14155550100', Date.now(), userId).run();

describe('GET|POST /api/notify/preferences', () => {
  it('answers the defaults before anything is saved: email and push, quiet 22:00–07:00, every alert', async () => {
    const owner = await signedInUser();
    const res = await api('GET', '/api/notify/preferences', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.data).toEqual(DEFAULT_NOTIFY_PREFERENCES);
    expect(res.data).toEqual({
      methods: ['email', 'push'],
      quiet_hours: { start: '22:00', end: '07:00' },
      alerts: { vaults: true, messages: true, canary_events: true },
    });
  });

  it('saves the full object, answers it, and reads it back; a second save replaces the first', async () => {
    const owner = await signedInUser();
    const saved = await api('POST', '/api/notify/preferences', { token: owner.token, json: PREFS });
    expect(saved.status).toBe(200);
    expect(saved.data).toEqual(PREFS);
    expect((await api('GET', '/api/notify/preferences', { token: owner.token })).data).toEqual(PREFS);

    const next = { methods: [], quiet_hours: { start: '00:00', end: '00:00' }, alerts: { vaults: true, messages: false, canary_events: false } };
    expect((await api('POST', '/api/notify/preferences', { token: owner.token, json: next })).data).toEqual(next);
    expect((await api('GET', '/api/notify/preferences', { token: owner.token })).data).toEqual(next);
    const rows = await env.DB.prepare('SELECT count(*) AS n FROM notification_preferences WHERE user_id = ?').bind(owner.id).first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it('drops repeated methods and trims times', async () => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/notify/preferences', {
      token: owner.token,
      json: { ...PREFS, methods: ['email', 'email', 'push'], quiet_hours: { start: ' 22:00 ', end: '07:00' } },
    });
    expect(res.data).toMatchObject({ methods: ['email', 'push'], quiet_hours: { start: '22:00', end: '07:00' } });
  });

  it('keeps each user’s preferences to themselves', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    await api('POST', '/api/notify/preferences', { token: owner.token, json: PREFS });
    expect((await api('GET', '/api/notify/preferences', { token: other.token })).data).toEqual(DEFAULT_NOTIFY_PREFERENCES);
  });

  it.each([
    ['an unknown method', { ...PREFS, methods: ['email', 'call'] }, ['body', 'methods', 1]],
    ['methods that are not a list', { ...PREFS, methods: 'email' }, ['body', 'methods']],
    ['an hour past 23', { ...PREFS, quiet_hours: { start: '24:00', end: '07:00' } }, ['body', 'quiet_hours', 'start']],
    ['a time without minutes', { ...PREFS, quiet_hours: { start: '22:00', end: '7' } }, ['body', 'quiet_hours', 'end']],
    ['missing quiet hours', { methods: PREFS.methods, alerts: PREFS.alerts }, ['body', 'quiet_hours']],
    ['an alert that is not a boolean', { ...PREFS, alerts: { ...PREFS.alerts, vaults: 'yes' } }, ['body', 'alerts', 'vaults']],
    ['a missing alert', { ...PREFS, alerts: { vaults: true, messages: true } }, ['body', 'alerts', 'canary_events']],
  ])('refuses %s with 422 naming the field', async (_name, json, loc) => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/notify/preferences', { token: owner.token, json });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect((await api('GET', '/api/notify/preferences', { token: owner.token })).data).toEqual(DEFAULT_NOTIFY_PREFERENCES);
  });

  it('refuses an empty body and malformed JSON', async () => {
    const owner = await signedInUser();
    expect((await api('POST', '/api/notify/preferences', { token: owner.token, json: {} })).status).toBe(422);
    const bad = await api('POST', '/api/notify/preferences', { token: owner.token, body: '{', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
  });

  it('refuses SMS until a phone number is verified, then accepts it', async () => {
    const owner = await signedInUser();
    const sms = { ...PREFS, methods: ['sms', 'email'] };
    const refused = await api('POST', '/api/notify/preferences', { token: owner.token, json: sms });
    expect(refused.status).toBe(422);
    expect(refused.data).toEqual({ detail: 'Verify a phone number before choosing SMS' });
    // A number still waiting for its code does not count.
    await env.DB.prepare('UPDATE users SET phone_e164 = ? WHERE id = ?').bind('+14155550100', owner.id).run();
    expect((await api('POST', '/api/notify/preferences', { token: owner.token, json: sms })).status).toBe(422);
    await verifyPhoneInDb(owner.id);
    const accepted = await api('POST', '/api/notify/preferences', { token: owner.token, json: sms });
    expect(accepted.status).toBe(200);
    expect(accepted.data.methods).toEqual(['sms', 'email']);
  });

  it('needs a session', async () => {
    expect((await api('GET', '/api/notify/preferences')).status).toBe(401);
    const res = await api('POST', '/api/notify/preferences', { json: PREFS });
    expect(res.status).toBe(401);
    expect(res.data).toEqual({ detail: 'Not authenticated' });
  });
});

describe('GET /api/notify/logs/{id}', () => {
  it('answers 404 for a malformed id and for a message that is not the caller’s', async () => {
    const owner = await signedInUser();
    const malformed = await api('GET', '/api/notify/logs/not-a-uuid', { token: owner.token });
    expect(malformed.status).toBe(404);
    expect(malformed.data).toEqual({ detail: 'Message not found' });
    expect((await api('GET', `/api/notify/logs/${crypto.randomUUID()}`, { token: owner.token })).status).toBe(404);
  });

  it('needs a session', async () => {
    expect((await api('GET', `/api/notify/logs/${crypto.randomUUID()}`)).status).toBe(401);
  });
});

describe('notify preferences over tRPC', () => {
  it('reads and saves through the same services, with the same SMS rule', async () => {
    const owner = await signedInUser();
    const caller = await callerAs(owner.id);
    expect(await caller.notify.preferences()).toEqual(DEFAULT_NOTIFY_PREFERENCES);
    expect(await caller.notify.setPreferences(PREFS as never)).toEqual(PREFS);
    await expect(caller.notify.setPreferences({ ...PREFS, methods: ['sms'] } as never)).rejects.toMatchObject({
      code: 'UNPROCESSABLE_CONTENT',
      message: 'Verify a phone number before choosing SMS',
    });
    expect((await api('GET', '/api/notify/preferences', { token: owner.token })).data).toEqual(PREFS);
  });

  it('answers over HTTP: 401 without a session, 422 with field issues for bad input', async () => {
    expect((await api('GET', '/api/trpc/notify.preferences')).status).toBe(401);
    const owner = await signedInUser();
    const res = await api('POST', '/api/trpc/notify.setPreferences', { token: owner.token, json: { ...PREFS, methods: ['fax'] } });
    expect(res.status).toBe(422);
    expect(res.data.error.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', 'methods', 0] })]));
  });
});
