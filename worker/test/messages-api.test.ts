import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { AUDIO_MAX_BYTES, CONTENT_MAX_CHARS } from '../src/contracts/messages';
import { api, signedInUser } from './helpers/api';
import { contactsOf } from './helpers/contacts';

type User = Awaited<ReturnType<typeof signedInUser>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RELEASED = ['releasing', 'delivered', 'failed'];

/** A valid create body; a missed_checkins rule keeps the message scheduled (only canary events fire it). */
function messageBody(recipientId: string, overrides: Record<string, unknown> = {}) {
  return {
    recipient_user_id: recipientId,
    content: 'If you are reading this, check the blue folder.',
    delivery_method: 'email',
    consent: true,
    rules: [{ trigger_type: 'missed_checkins', trigger_value: 3 }],
    ...overrides,
  };
}

async function pair() {
  const [sender, recipient] = await Promise.all([signedInUser(), signedInUser()]);
  return { sender, recipient };
}

async function createMessage(sender: User, recipientId: string, overrides: Record<string, unknown> = {}) {
  const res = await api('POST', '/api/message/create', { token: sender.token, json: messageBody(recipientId, overrides) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.data as { id: string; [k: string]: any };
}

async function messageCount() {
  return (await env.DB.prepare('SELECT count(*) AS n FROM messages').first<{ n: number }>())!.n;
}

async function audioObjectCount() {
  return (await env.BLOBS.list({ prefix: 'messages/' })).objects.length;
}

/** Bytes starting with `magic`, padded with a recognisable pattern, and their base64. */
function audioBytes(magic: number[], length: number) {
  const bytes = new Uint8Array(length);
  bytes.set(magic);
  for (let i = magic.length; i < length; i++) bytes[i] = (i * 31 + 7) & 0xff;
  return bytes;
}
function base64(bytes: Uint8Array) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
const WEBM = [0x1a, 0x45, 0xdf, 0xa3];
const OGG = [0x4f, 0x67, 0x67, 0x53]; // "OggS"
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The raw response, for binary bodies (the api() helper decodes text). */
async function raw(method: string, path: string, token?: string) {
  const headers = new Headers();
  if (token) headers.set('authorization', `Bearer ${token}`);
  return exports.default.fetch(new Request(`http://afterword.test${path}`, { method, headers }));
}

const trpcQuery = (proc: string, input: unknown, token?: string) =>
  api('GET', `/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`, { token });

describe('POST /api/message/create', () => {
  it('creates a scheduled message and echoes its rules with canonical trigger values', async () => {
    const { sender, recipient } = await pair();
    const before = Date.now();
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: messageBody(recipient.id, {
        rules: [
          { trigger_type: 'missed_checkins', trigger_value: 3 },
          { trigger_type: 'missed_checkins', trigger_value: ' 5 ', expire_window: '2' },
          { trigger_type: 'fixed_date', trigger_value: ' 2099-01-01 ', expire_window: 0 },
          { trigger_type: 'delay_after_death', trigger_value: '7', expire_window: null },
          { trigger_type: 'delay_after_death', trigger_value: 0, expire_window: '' },
        ],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.data.id).toMatch(UUID);
    expect(res.data).toMatchObject({
      sender_id: sender.id,
      recipient_user_id: recipient.id,
      content: 'If you are reading this, check the blue folder.',
      delivered: false,
      delivery_method: 'email',
      use_e2ee: false,
      status: 'scheduled',
      has_audio: false,
      released_at: null,
    });
    expect(res.data.rules).toEqual([
      { trigger_type: 'missed_checkins', trigger_value: '3', expire_window: null, fired_at: null },
      { trigger_type: 'missed_checkins', trigger_value: '5', expire_window: 2, fired_at: null },
      { trigger_type: 'fixed_date', trigger_value: '2099-01-01', expire_window: 0, fired_at: null },
      { trigger_type: 'delay_after_death', trigger_value: '7', expire_window: null, fired_at: null },
      { trigger_type: 'delay_after_death', trigger_value: '0', expire_window: null, fired_at: null },
    ]);
    // No deliver_at: now.
    const deliverAt = Date.parse(res.data.deliver_at);
    expect(deliverAt).toBeGreaterThanOrEqual(before - 1000);
    expect(deliverAt).toBeLessThanOrEqual(Date.now() + 1000);
    // Stored as sent back.
    const row = await env.DB.prepare('SELECT sender_id, status, rules FROM messages WHERE id = ?')
      .bind(res.data.id)
      .first<{ sender_id: string; status: string; rules: string }>();
    expect(row).toMatchObject({ sender_id: sender.id, status: 'scheduled' });
    expect(JSON.parse(row!.rules).map((r: { trigger_value: string }) => r.trigger_value)).toEqual(['3', '5', '2099-01-01', '7', '0']);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['null', null],
  ])('defaults deliver_at to now when it is %s', async (_name, deliver_at) => {
    const { sender, recipient } = await pair();
    const before = Date.now();
    const json = messageBody(recipient.id, deliver_at === undefined ? {} : { deliver_at });
    const res = await api('POST', '/api/message/create', { token: sender.token, json });
    expect(res.status).toBe(201);
    expect(res.data.status).toBe('scheduled');
    expect(Date.parse(res.data.deliver_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(res.data.deliver_at)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('keeps a message without rules and a future deliver_at pending; a date-time without offset is UTC', async () => {
    const { sender, recipient } = await pair();
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: messageBody(recipient.id, { rules: [], deliver_at: '2099-06-01T12:00' }),
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ status: 'scheduled', delivered: false, released_at: null, deliver_at: '2099-06-01T12:00:00.000Z', rules: [] });
    const dated = await createMessage(sender, recipient.id, { rules: [], deliver_at: '2099-06-01' });
    expect(dated.deliver_at).toBe('2099-06-01T00:00:00.000Z');
    const offset = await createMessage(sender, recipient.id, { rules: [], deliver_at: '2099-06-01T12:00:00+02:00' });
    expect(offset.deliver_at).toBe('2099-06-01T10:00:00.000Z');
  });

  it('releases a message without rules and without deliver_at at once (a letter due now)', async () => {
    const { sender, recipient } = await pair();
    const res = await api('POST', '/api/message/create', { token: sender.token, json: messageBody(recipient.id, { rules: [] }) });
    expect(res.status).toBe(201);
    expect(RELEASED).toContain(res.data.status);
    expect(res.data.delivered).toBe(true);
    const inbox = await api('GET', '/api/message/inbox', { token: recipient.token });
    expect(inbox.data.map((m: { id: string }) => m.id)).toEqual([res.data.id]);
  });

  it('accepts content of exactly 100,000 characters and ten rules', async () => {
    const { sender, recipient } = await pair();
    const rules = Array.from({ length: 10 }, (_, i) => ({ trigger_type: 'missed_checkins', trigger_value: i + 1 }));
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: messageBody(recipient.id, { content: 'x'.repeat(CONTENT_MAX_CHARS), rules }),
    });
    expect(res.status).toBe(201);
    expect(res.data.content).toHaveLength(CONTENT_MAX_CHARS);
    expect(res.data.rules).toHaveLength(10);
  });

  it('accepts each delivery method', async () => {
    const { sender, recipient } = await pair();
    for (const delivery_method of ['email', 'sms', 'call', 'push']) {
      expect((await createMessage(sender, recipient.id, { delivery_method })).delivery_method).toBe(delivery_method);
    }
  });

  it('accepts the recipient id in upper case and stores it lower case', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id, { recipient_user_id: ` ${recipient.id.toUpperCase()} ` });
    expect(created.recipient_user_id).toBe(recipient.id);
  });
});

describe('reading my messages', () => {
  it('GET /api/message/pending lists it with the documented fields', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id, { deliver_at: '2099-01-01T00:00:00Z' });
    const res = await api('GET', '/api/message/pending', { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(1);
    const item = res.data[0];
    expect(Object.keys(item)).toEqual(
      expect.arrayContaining(['id', 'recipient_user_id', 'content', 'deliver_at', 'delivered', 'delivery_method', 'use_e2ee', 'rules', 'status']),
    );
    expect(item).toMatchObject({
      id: created.id,
      recipient_user_id: recipient.id,
      content: created.content,
      deliver_at: '2099-01-01T00:00:00.000Z',
      delivered: false,
      delivery_method: 'email',
      use_e2ee: false,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3', expire_window: null, fired_at: null }],
      status: 'scheduled',
    });
  });

  it('drops released and cancelled messages from pending', async () => {
    const { sender, recipient } = await pair();
    const kept = await createMessage(sender, recipient.id);
    const released = await createMessage(sender, recipient.id);
    const cancelled = await createMessage(sender, recipient.id);
    expect((await api('POST', `/api/messages/deliver/${released.id}`, { token: sender.token })).status).toBe(200);
    expect((await api('POST', `/api/message/${cancelled.id}/cancel`, { token: sender.token })).status).toBe(200);
    const pending = await api('GET', '/api/message/pending', { token: sender.token });
    expect(pending.data.map((m: { id: string }) => m.id)).toEqual([kept.id]);
  });

  it('GET /api/message/list filters all, pending and sent (an unknown filter means all)', async () => {
    const { sender, recipient } = await pair();
    const waiting = await createMessage(sender, recipient.id);
    const sent = await createMessage(sender, recipient.id);
    expect((await api('POST', `/api/messages/deliver/${sent.id}`, { token: sender.token })).status).toBe(200);
    const ids = async (query: string) => {
      const res = await api('GET', `/api/message/list${query}`, { token: sender.token });
      expect(res.status).toBe(200);
      return (res.data as { id: string }[]).map((m) => m.id).sort();
    };
    expect(await ids('')).toEqual([waiting.id, sent.id].sort());
    expect(await ids('?filter=all')).toEqual([waiting.id, sent.id].sort());
    expect(await ids('?filter=pending')).toEqual([waiting.id]);
    expect(await ids('?filter=sent')).toEqual([sent.id]);
    expect(await ids('?filter=bogus')).toEqual([waiting.id, sent.id].sort());
    const all = await api('GET', '/api/message/list?filter=all', { token: sender.token });
    expect(all.data.find((m: { id: string }) => m.id === sent.id)).toMatchObject({ delivered: true });
    expect(all.data.find((m: { id: string }) => m.id === waiting.id)).toMatchObject({ delivered: false, status: 'scheduled' });
  });

  it('names the recipient by email only to a sender who is their accepted contact: a user id is not an address book', async () => {
    const { sender, recipient } = await pair();
    const sent = await createMessage(sender, recipient.id);
    const seen = async () => ({
      listed: (await api('GET', '/api/message/list', { token: sender.token })).data.find((m: { id: string }) => m.id === sent.id),
      read: (await api('GET', `/api/message/${sent.id}`, { token: sender.token })).data.message,
    });
    const before = await seen();
    expect(before.listed).not.toHaveProperty('recipient_email');
    expect(before.read).not.toHaveProperty('recipient_email');
    expect(before.read.recipient_user_id).toBe(recipient.id);
    expect(JSON.stringify(before)).not.toContain(recipient.email);

    await contactsOf(recipient, sender);
    const after = await seen();
    expect(after.listed.recipient_email).toBe(recipient.email);
    expect(after.read.recipient_email).toBe(recipient.email);

    const toSelf = await createMessage(sender, sender.id);
    expect((await api('GET', `/api/message/${toSelf.id}`, { token: sender.token })).data.message.recipient_email).toBe(sender.email);
  });

  it('GET /api/message/{id} answers the message, its transitions, its log and role sender', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id);
    const res = await api('GET', `/api/message/${created.id}`, { token: sender.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.data).sort()).toEqual(['log', 'message', 'role', 'transitions']);
    expect(res.data.role).toBe('sender');
    expect(res.data.message).toMatchObject({ id: created.id, status: 'scheduled', rules: created.rules });
    expect(res.data.transitions).toEqual([
      { at: expect.any(String), from: null, to: 'scheduled', cause: 'created', detail: expect.stringMatching(/^Created\. Waiting for/) },
    ]);
    // The reason is for people: its times read like 'Tue, 24 Nov 2026, 00:29 UTC', not ISO (the `at` field is ISO).
    expect(res.data.transitions[0].detail).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(res.data.transitions[0].detail).toMatch(/never before \w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC\./);
    expect(res.data.log).toEqual([]);
    // Upper case is the same id.
    expect((await api('GET', `/api/message/${created.id.toUpperCase()}`, { token: sender.token })).data.message.id).toBe(created.id);
  });
});

describe('refusing bad input: 422 naming the field, nothing stored', () => {
  const long = 'x'.repeat(CONTENT_MAX_CHARS + 1);
  const rule = (trigger_type: string, trigger_value: unknown, extra: Record<string, unknown> = {}) => ({ rules: [{ trigger_type, trigger_value, ...extra }] });
  const cases: [string, (recipientId: string) => Record<string, unknown>, (string | number)[]][] = [
    [
      'a missing recipient',
      (r) => {
        const b: Record<string, unknown> = messageBody(r);
        delete b.recipient_user_id;
        return b;
      },
      ['body', 'recipient_user_id'],
    ],
    ['a blank recipient', (r) => messageBody(r, { recipient_user_id: '' }), ['body', 'recipient_user_id']],
    ['a whitespace recipient', (r) => messageBody(r, { recipient_user_id: '   ' }), ['body', 'recipient_user_id']],
    ['a malformed recipient uuid', (r) => messageBody(r, { recipient_user_id: 'not-a-uuid' }), ['body', 'recipient_user_id']],
    ['a truncated recipient uuid', (r) => messageBody(r, { recipient_user_id: r.slice(0, -1) }), ['body', 'recipient_user_id']],
    ['a numeric recipient', (r) => messageBody(r, { recipient_user_id: 42 }), ['body', 'recipient_user_id']],
    ['delivery_method fax', (r) => messageBody(r, { delivery_method: 'fax' }), ['body', 'delivery_method']],
    ['delivery_method EMAIL', (r) => messageBody(r, { delivery_method: 'EMAIL' }), ['body', 'delivery_method']],
    [
      'a missing delivery_method',
      (r) => {
        const b: Record<string, unknown> = messageBody(r);
        delete b.delivery_method;
        return b;
      },
      ['body', 'delivery_method'],
    ],
    ['consent false', (r) => messageBody(r, { consent: false }), ['body', 'consent']],
    [
      'consent missing',
      (r) => {
        const b: Record<string, unknown> = messageBody(r);
        delete b.consent;
        return b;
      },
      ['body', 'consent'],
    ],
    ['consent "true"', (r) => messageBody(r, { consent: 'true' }), ['body', 'consent']],
    ['content over 100,000 characters', (r) => messageBody(r, { content: long }), ['body', 'content']],
    ['content a number', (r) => messageBody(r, { content: 12 }), ['body', 'content']],
    ['deliver_at not ISO', (r) => messageBody(r, { deliver_at: 'next tuesday' }), ['body', 'deliver_at']],
    ['deliver_at 01/02/2026', (r) => messageBody(r, { deliver_at: '01/02/2026' }), ['body', 'deliver_at']],
    ['deliver_at 2026-02-31', (r) => messageBody(r, { deliver_at: '2026-02-31' }), ['body', 'deliver_at']],
    ['deliver_at 2026-02-31T10:00Z', (r) => messageBody(r, { deliver_at: '2026-02-31T10:00Z' }), ['body', 'deliver_at']],
    ['deliver_at 2026-01-01T25:00', (r) => messageBody(r, { deliver_at: '2026-01-01T25:00' }), ['body', 'deliver_at']],
    ['deliver_at a number', (r) => messageBody(r, { deliver_at: 1767225600000 }), ['body', 'deliver_at']],
    ['missed_checkins 0', (r) => messageBody(r, rule('missed_checkins', 0)), ['body', 'rules', 0, 'trigger_value']],
    ['missed_checkins -1', (r) => messageBody(r, rule('missed_checkins', -1)), ['body', 'rules', 0, 'trigger_value']],
    ['missed_checkins 1.5', (r) => messageBody(r, rule('missed_checkins', 1.5)), ['body', 'rules', 0, 'trigger_value']],
    ['missed_checkins "1.5"', (r) => messageBody(r, rule('missed_checkins', '1.5')), ['body', 'rules', 0, 'trigger_value']],
    ['missed_checkins "abc"', (r) => messageBody(r, rule('missed_checkins', 'abc')), ['body', 'rules', 0, 'trigger_value']],
    ['missed_checkins ""', (r) => messageBody(r, rule('missed_checkins', '')), ['body', 'rules', 0, 'trigger_value']],
    ['missed_checkins missing', (r) => messageBody(r, { rules: [{ trigger_type: 'missed_checkins' }] }), ['body', 'rules', 0, 'trigger_value']],
    ['missed_checkins 1001', (r) => messageBody(r, rule('missed_checkins', 1001)), ['body', 'rules', 0, 'trigger_value']],
    ['fixed_date "tomorrow"', (r) => messageBody(r, rule('fixed_date', 'tomorrow')), ['body', 'rules', 0, 'trigger_value']],
    ['fixed_date 2026-13-01', (r) => messageBody(r, rule('fixed_date', '2026-13-01')), ['body', 'rules', 0, 'trigger_value']],
    ['fixed_date 2026-02-30', (r) => messageBody(r, rule('fixed_date', '2026-02-30')), ['body', 'rules', 0, 'trigger_value']],
    ['fixed_date a number', (r) => messageBody(r, rule('fixed_date', 20260101)), ['body', 'rules', 0, 'trigger_value']],
    ['delay_after_death -1', (r) => messageBody(r, rule('delay_after_death', -1)), ['body', 'rules', 0, 'trigger_value']],
    ['delay_after_death 2.5', (r) => messageBody(r, rule('delay_after_death', 2.5)), ['body', 'rules', 0, 'trigger_value']],
    ['delay_after_death 3651', (r) => messageBody(r, rule('delay_after_death', 3651)), ['body', 'rules', 0, 'trigger_value']],
    ['expire_window -1', (r) => messageBody(r, rule('missed_checkins', 3, { expire_window: -1 })), ['body', 'rules', 0, 'expire_window']],
    ['expire_window 1.5', (r) => messageBody(r, rule('missed_checkins', 3, { expire_window: 1.5 })), ['body', 'rules', 0, 'expire_window']],
    ['expire_window "soon"', (r) => messageBody(r, rule('fixed_date', '2099-01-01', { expire_window: 'soon' })), ['body', 'rules', 0, 'expire_window']],
    ['expire_window 366', (r) => messageBody(r, rule('delay_after_death', 1, { expire_window: 366 })), ['body', 'rules', 0, 'expire_window']],
    ['an unknown trigger_type', (r) => messageBody(r, rule('full_moon', 1)), ['body', 'rules', 0, 'trigger_type']],
    [
      'a bad second rule',
      (r) =>
        messageBody(r, {
          rules: [
            { trigger_type: 'missed_checkins', trigger_value: 2 },
            { trigger_type: 'fixed_date', trigger_value: 'nope' },
          ],
        }),
      ['body', 'rules', 1, 'trigger_value'],
    ],
    ['rules not a list', (r) => messageBody(r, { rules: { trigger_type: 'missed_checkins', trigger_value: 2 } }), ['body', 'rules']],
    [
      'more than 10 rules',
      (r) => messageBody(r, { rules: Array.from({ length: 11 }, () => ({ trigger_type: 'missed_checkins', trigger_value: 2 })) }),
      ['body', 'rules'],
    ],
    ['use_e2ee "yes"', (r) => messageBody(r, { use_e2ee: 'yes' }), ['body', 'use_e2ee']],
    ['audio_base64 not base64', (r) => messageBody(r, { audio_base64: '!!! this is not base64 !!!' }), ['body', 'audio_base64']],
    ['audio_base64 of the wrong length', (r) => messageBody(r, { audio_base64: 'GkXfo' }), ['body', 'audio_base64']],
    ['audio with a PNG header', (r) => messageBody(r, { audio_base64: base64(audioBytes(PNG, 256)) }), ['body', 'audio_base64']],
    ['audio of plain text', (r) => messageBody(r, { audio_base64: btoa('hello, this is not audio') }), ['body', 'audio_base64']],
    ['audio_base64 a number', (r) => messageBody(r, { audio_base64: 12345 }), ['body', 'audio_base64']],
  ];

  it.each(cases)('refuses %s', async (_name, body, loc) => {
    const { sender, recipient } = await pair();
    const [messagesBefore, blobsBefore] = [await messageCount(), await audioObjectCount()];
    const res = await api('POST', '/api/message/create', { token: sender.token, json: body(recipient.id) });
    expect(res.status).toBe(422);
    expect(Array.isArray(res.data.detail)).toBe(true);
    expect(res.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, msg: expect.any(String), type: expect.any(String) })]));
    expect(await messageCount()).toBe(messagesBefore);
    expect(await audioObjectCount()).toBe(blobsBefore);
  });

  it('names every bad field at once', async () => {
    const res = await api('POST', '/api/message/create', { token: (await signedInUser()).token, json: {} });
    expect(res.status).toBe(422);
    const locs = res.data.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.recipient_user_id', 'body.delivery_method', 'body.consent']));
  });

  it('refuses use_e2ee true with something that is not a sealed envelope (422), storing nothing', async () => {
    const { sender, recipient } = await pair();
    const before = await messageCount();
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: messageBody(recipient.id, { content: '', use_e2ee: true, content_encrypted: 'ciphertext' }),
    });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'content_encrypted']);
    expect(await messageCount()).toBe(before);
  });

  it('refuses an unknown recipient with 404', async () => {
    const { sender } = await pair();
    const before = await messageCount();
    const res = await api('POST', '/api/message/create', { token: sender.token, json: messageBody(crypto.randomUUID()) });
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ detail: 'Recipient not found: no user has this id' });
    expect(await messageCount()).toBe(before);
  });

  it('needs a session (401), JSON (415) and well-formed JSON (400)', async () => {
    const { sender, recipient } = await pair();
    const before = await messageCount();
    const anonymous = await api('POST', '/api/message/create', { json: messageBody(recipient.id) });
    expect(anonymous.status).toBe(401);
    const badToken = await api('POST', '/api/message/create', { token: 'not-a-token', json: messageBody(recipient.id) });
    expect(badToken.status).toBe(401);
    const form = await api('POST', '/api/message/create', {
      token: sender.token,
      body: `recipient_user_id=${recipient.id}&delivery_method=email&consent=true`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.data.detail).toMatch(/JSON/);
    const text = await api('POST', '/api/message/create', {
      token: sender.token,
      body: JSON.stringify(messageBody(recipient.id)),
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const malformed = await api('POST', '/api/message/create', {
      token: sender.token,
      body: '{"recipient_user_id": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.data).toEqual({ detail: 'Malformed JSON body' });
    expect(await messageCount()).toBe(before);
  });

  it('answers a JSON array or a bare string with 422, not 500', async () => {
    const { sender } = await pair();
    for (const json of [[1, 2], 'hello', null]) {
      expect((await api('POST', '/api/message/create', { token: sender.token, json })).status).toBe(422);
    }
  });
});

describe('audio size limits', () => {
  it('takes a JSON body over 1 MiB on this route: 1.5 MB of audio is fine', async () => {
    const { sender, recipient } = await pair();
    const bytes = audioBytes(WEBM, 1_500_000);
    const created = await createMessage(sender, recipient.id, { audio_base64: base64(bytes) });
    expect(created).toMatchObject({ has_audio: true, audio_type: 'audio/webm' });
    expect((await env.BLOBS.head(`messages/${created.id}/audio`))?.size).toBe(bytes.length);
  });

  it('refuses ~10.5 MB of WebM audio with 413 and stores nothing', async () => {
    const { sender, recipient } = await pair();
    const [messagesBefore, blobsBefore] = [await messageCount(), await audioObjectCount()];
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: messageBody(recipient.id, { audio_base64: base64(audioBytes(WEBM, 10.5 * 1024 * 1024)) }),
    });
    expect(res.status).toBe(413);
    expect(typeof res.data.detail).toBe('string');
    expect(await messageCount()).toBe(messagesBefore);
    expect(await audioObjectCount()).toBe(blobsBefore);
  });

  it('refuses audio one byte over 10 MB with 413', async () => {
    const { sender, recipient } = await pair();
    const before = await messageCount();
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: messageBody(recipient.id, { audio_base64: base64(audioBytes(WEBM, AUDIO_MAX_BYTES + 1)) }),
    });
    expect(res.status).toBe(413);
    expect(res.data.detail).toBe('audio must be at most 10 MB');
    expect(await messageCount()).toBe(before);
  });

  // Regression: a zod .max on audio_base64 once answered 422 for audio between 10 MB + 3 bytes and ~10.33 MB.
  it('refuses audio 100 kB over 10 MB with 413, like any audio over the limit', async () => {
    const { sender, recipient } = await pair();
    const before = await messageCount();
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: messageBody(recipient.id, { audio_base64: base64(audioBytes(WEBM, AUDIO_MAX_BYTES + 100_000)) }),
    });
    expect(res.status).toBe(413);
    expect(await messageCount()).toBe(before);
  });

  it('accepts audio of exactly 10 MB', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id, { audio_base64: base64(audioBytes(WEBM, AUDIO_MAX_BYTES)) });
    expect((await env.BLOBS.head(`messages/${created.id}/audio`))?.size).toBe(AUDIO_MAX_BYTES);
  });
});

describe('audio in R2', () => {
  it.each([
    ['WebM', WEBM, 'audio/webm'],
    ['Ogg', OGG, 'audio/ogg'],
  ])('stores %s audio in R2, not D1, and serves the same bytes back to the sender only', async (_name, magic, type) => {
    const { sender, recipient } = await pair();
    const outsider = await signedInUser();
    const bytes = audioBytes(magic, 4096);
    const b64 = base64(bytes);
    const created = await createMessage(sender, recipient.id, { audio_base64: b64 });
    expect(created).toMatchObject({ has_audio: true, audio_type: type });
    expect(JSON.stringify(created)).not.toContain(b64.slice(8, 200));

    const object = await env.BLOBS.get(`messages/${created.id}/audio`);
    expect(object).not.toBeNull();
    expect(object!.httpMetadata?.contentType).toBe(type);
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);

    const row = await env.DB.prepare('SELECT * FROM messages WHERE id = ?').bind(created.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ audio_key: `messages/${created.id}/audio`, audio_type: type, audio_bytes: bytes.length });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(b64.slice(8, 200));
    expect(stored.length).toBeLessThan(2000);
    for (const value of Object.values(row!)) expect(value instanceof ArrayBuffer || ArrayBuffer.isView(value)).toBe(false);

    const res = await raw('GET', `/api/message/${created.id}/audio`, sender.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);

    for (const user of [outsider, recipient]) {
      const denied = await api('GET', `/api/message/${created.id}/audio`, { token: user.token });
      expect(denied.status).toBe(404);
      expect(denied.data).toEqual({ detail: 'Message not found' });
    }
    expect((await api('GET', `/api/message/${created.id}/audio`)).status).toBe(401);
  });

  it('accepts a data: URL prefix as a browser FileReader gives it', async () => {
    const { sender, recipient } = await pair();
    const bytes = audioBytes(WEBM, 300);
    const created = await createMessage(sender, recipient.id, { audio_base64: `data:audio/webm;codecs=opus;base64,${base64(bytes)}` });
    const res = await raw('GET', `/api/message/${created.id}/audio`, sender.token);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('serves the recording to the recipient once released', async () => {
    const { sender, recipient } = await pair();
    const bytes = audioBytes(OGG, 1000);
    const created = await createMessage(sender, recipient.id, { audio_base64: base64(bytes) });
    expect((await api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token })).status).toBe(200);
    const res = await raw('GET', `/api/message/${created.id}/audio`, recipient.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/ogg');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it('answers 404 for the audio of a message without a recording', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id);
    const res = await api('GET', `/api/message/${created.id}/audio`, { token: sender.token });
    expect(res.status).toBe(404);
    expect(res.data).toEqual({ detail: 'This message has no recording' });
  });
});

describe('ownership', () => {
  it('hides a message from another user: 404 everywhere, absent from their lists, unchanged', async () => {
    const { sender, recipient } = await pair();
    const outsider = await signedInUser();
    const created = await createMessage(sender, recipient.id, { audio_base64: base64(audioBytes(WEBM, 64)) });
    const attempts = [
      await api('GET', `/api/message/${created.id}`, { token: outsider.token }),
      await api('GET', `/api/message/${created.id}/audio`, { token: outsider.token }),
      await api('POST', `/api/message/${created.id}/cancel`, { token: outsider.token }),
      await api('POST', `/api/messages/deliver/${created.id}`, { token: outsider.token }),
      await api('GET', `/api/notify/logs/${created.id}`, { token: outsider.token }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(404);
      expect(res.data).toEqual({ detail: 'Message not found' });
    }
    for (const path of ['/api/message/pending', '/api/message/list', '/api/message/list?filter=pending', '/api/message/inbox']) {
      expect((await api('GET', path, { token: outsider.token })).data).toEqual([]);
    }
    // Neither the cancel nor the deliver did anything.
    const mine = await api('GET', `/api/message/${created.id}`, { token: sender.token });
    expect(mine.data.message).toMatchObject({ status: 'scheduled', delivered: false });
    expect(mine.data.transitions).toHaveLength(1);
    // The same over tRPC.
    const trpc = await trpcQuery('message.byId', { id: created.id }, outsider.token);
    expect(trpc.status).toBe(404);
    expect(trpc.data.error.data.detail).toBe('Message not found');
  });

  it('answers 404 to malformed ids', async () => {
    const { sender } = await pair();
    for (const id of ['not-a-uuid', '123', `${crypto.randomUUID()}x`, '%20']) {
      for (const [method, path] of [
        ['GET', `/api/message/${id}`],
        ['GET', `/api/message/${id}/audio`],
        ['POST', `/api/message/${id}/cancel`],
        ['POST', `/api/messages/deliver/${id}`],
        ['GET', `/api/notify/logs/${id}`],
      ] as const) {
        const res = await api(method, path, { token: sender.token });
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    // A well-formed id nobody has.
    expect((await api('GET', `/api/message/${crypto.randomUUID()}`, { token: sender.token })).status).toBe(404);
  });

  it('needs a session for every message route', async () => {
    const id = crypto.randomUUID();
    for (const [method, path] of [
      ['GET', '/api/message/pending'],
      ['GET', '/api/message/list'],
      ['GET', '/api/message/inbox'],
      ['GET', `/api/message/${id}`],
      ['POST', `/api/message/${id}/cancel`],
      ['POST', `/api/messages/deliver/${id}`],
      ['GET', `/api/notify/logs/${id}`],
    ] as const) {
      expect((await api(method, path)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('shows the recipient nothing before release, then their copy without the sender’s rules, history or log', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id, { rules: [{ trigger_type: 'missed_checkins', trigger_value: 2, expire_window: 3 }] });

    expect((await api('GET', `/api/message/${created.id}`, { token: recipient.token })).status).toBe(404);
    expect((await api('GET', `/api/notify/logs/${created.id}`, { token: recipient.token })).status).toBe(404);
    expect((await api('GET', '/api/message/inbox', { token: recipient.token })).data).toEqual([]);
    // A recipient cannot release or cancel a message addressed to them.
    expect((await api('POST', `/api/messages/deliver/${created.id}`, { token: recipient.token })).status).toBe(404);
    expect((await api('POST', `/api/message/${created.id}/cancel`, { token: recipient.token })).status).toBe(404);

    const delivered = await api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token });
    expect(delivered.status).toBe(200);

    const inbox = await api('GET', '/api/message/inbox', { token: recipient.token });
    expect(inbox.status).toBe(200);
    expect(inbox.data).toHaveLength(1);
    expect(inbox.data[0]).toMatchObject({ id: created.id, sender: { id: sender.id, email: sender.email }, content: created.content, read_at: null });
    expect(inbox.data[0]).not.toHaveProperty('rules');
    expect(Date.parse(inbox.data[0].released_at)).toBeGreaterThan(0);
    // The recipient's own lists of sent messages stay empty.
    expect((await api('GET', '/api/message/list', { token: recipient.token })).data).toEqual([]);

    // Their copy only: no state history, no delivery log (worker/test/received-messages.test.ts says more).
    const detail = await api('GET', `/api/message/${created.id}`, { token: recipient.token });
    expect(detail.status).toBe(200);
    expect(detail.data).toEqual({ role: 'recipient', message: inbox.data[0] });
    expect((await api('GET', `/api/notify/logs/${created.id}`, { token: recipient.token })).status).toBe(404);
    const logs = await api('GET', `/api/notify/logs/${created.id}`, { token: sender.token });
    expect(logs.status).toBe(200);
    expect(logs.data).toEqual(expect.arrayContaining([{ created_at: expect.any(String), channel: 'inbox', success: true, attempt: 1 }]));
    // The recipient still cannot act on it as if it were theirs.
    expect((await api('POST', `/api/message/${created.id}/cancel`, { token: recipient.token })).status).toBe(404);
  });

  it('reads the delivery log by an upper-case id too, as GET /api/message/{id} does', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id);
    await api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token });
    const res = await api('GET', `/api/notify/logs/${created.id.toUpperCase()}`, { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.data).toEqual(expect.arrayContaining([expect.objectContaining({ channel: 'inbox', success: true })]));
  });
});

describe('sender actions', () => {
  it('deliver releases now: released_at set, delivered, a manual transition, an inbox log row', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id, { deliver_at: '2099-01-01' });
    const before = Date.now();
    const res = await api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token });
    expect(res.status).toBe(200);
    expect(RELEASED).toContain(res.data.status);
    expect(res.data.delivered).toBe(true);
    expect(Date.parse(res.data.released_at)).toBeGreaterThanOrEqual(before - 1000);

    const detail = await api('GET', `/api/message/${created.id}`, { token: sender.token });
    expect(detail.data.transitions[0]).toMatchObject({ from: null, to: 'scheduled', cause: 'created' });
    expect(detail.data.transitions).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'scheduled', to: 'releasing', cause: 'manual' })]));
    expect(detail.data.log).toEqual(expect.arrayContaining([expect.objectContaining({ channel: 'inbox', success: true })]));
    const deliveries = await env.DB.prepare('SELECT channel FROM deliveries WHERE message_id = ?').bind(created.id).all<{ channel: string }>();
    expect(deliveries.results).toEqual([{ channel: 'email' }]);

    const again = await api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token });
    expect(again.status).toBe(409);
    expect(again.data).toEqual({ detail: 'This message was already released' });
    // Still one release, one inbox copy, one delivery.
    const after = await api('GET', `/api/message/${created.id}`, { token: sender.token });
    expect(after.data.transitions.filter((t: { cause: string }) => t.cause === 'manual')).toHaveLength(1);
    expect(after.data.log.filter((l: { channel: string }) => l.channel === 'inbox')).toHaveLength(1);
    const count = await env.DB.prepare('SELECT count(*) AS n FROM deliveries WHERE message_id = ?').bind(created.id).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it('cancel stops a scheduled message for good: deliver and cancel then answer 409', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id);
    const res = await api('POST', `/api/message/${created.id}/cancel`, { token: sender.token });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ id: created.id, status: 'cancelled', delivered: false, released_at: null });

    const deliver = await api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token });
    expect(deliver.status).toBe(409);
    expect(deliver.data).toEqual({ detail: 'This message was cancelled' });
    const cancelAgain = await api('POST', `/api/message/${created.id}/cancel`, { token: sender.token });
    expect(cancelAgain.status).toBe(409);
    expect(cancelAgain.data).toEqual({ detail: 'This message was cancelled' });

    const detail = await api('GET', `/api/message/${created.id}`, { token: sender.token });
    expect(detail.data.message).toMatchObject({ status: 'cancelled', delivered: false });
    expect(detail.data.transitions.map((t: { to: string; cause: string }) => `${t.to}:${t.cause}`)).toEqual([
      'scheduled:created',
      'cancelled:cancelled_by_sender',
    ]);
    expect(detail.data.log).toEqual([]);
    expect((await api('GET', '/api/message/inbox', { token: recipient.token })).data).toEqual([]);
    expect((await api('GET', `/api/message/${created.id}`, { token: recipient.token })).status).toBe(404);
  });

  it('cannot cancel a released message (409)', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id);
    expect((await api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token })).status).toBe(200);
    const res = await api('POST', `/api/message/${created.id}/cancel`, { token: sender.token });
    expect(res.status).toBe(409);
    expect(res.data).toEqual({ detail: 'This message was already released' });
    const detail = await api('GET', `/api/message/${created.id}`, { token: sender.token });
    expect(detail.data.message.delivered).toBe(true);
    expect(detail.data.message.status).not.toBe('cancelled');
    expect((await api('GET', '/api/message/inbox', { token: recipient.token })).data).toHaveLength(1);
  });

  it('releases once when two delivers race: every 200 shows it released, the loser may answer 409', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id);
    const results = await Promise.all([1, 2].map(() => api('POST', `/api/messages/deliver/${created.id}`, { token: sender.token })));
    // deliverNow answers the loser of the compare-and-set from the message as it is now (200), and a
    // loser that read it after the release 409: either way exactly one release.
    for (const r of results) {
      expect([200, 409]).toContain(r.status);
      if (r.status === 200) expect(r.data).toMatchObject({ delivered: true });
    }
    expect(results.some((r) => r.status === 200)).toBe(true);
    const manual = await env.DB.prepare("SELECT count(*) AS n FROM message_transitions WHERE message_id = ? AND cause = 'manual'")
      .bind(created.id)
      .first<{ n: number }>();
    expect(manual?.n).toBe(1);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM delivery_log WHERE message_id = ? AND channel = 'inbox'")
      .bind(created.id)
      .first<{ n: number }>();
    expect(count?.n).toBe(1);
  });
});

describe('the same operations over tRPC', () => {
  it('creates with message.create and reads the result over REST', async () => {
    const { sender, recipient } = await pair();
    const res = await api('POST', '/api/trpc/message.create', {
      token: sender.token,
      json: messageBody(recipient.id, { rules: [{ trigger_type: 'fixed_date', trigger_value: '2099-03-04' }] }),
    });
    expect(res.status).toBe(200);
    const created = res.data.result.data;
    expect(created).toMatchObject({
      status: 'scheduled',
      delivered: false,
      rules: [{ trigger_type: 'fixed_date', trigger_value: '2099-03-04', expire_window: null, fired_at: null }],
    });
    expect((await api('GET', `/api/message/${created.id}`, { token: sender.token })).data.role).toBe('sender');
    const byId = await trpcQuery('message.byId', { id: created.id }, sender.token);
    expect(byId.data.result.data.message.id).toBe(created.id);
    const list = await trpcQuery('message.list', { filter: 'pending' }, sender.token);
    expect(list.data.result.data.map((m: { id: string }) => m.id)).toEqual([created.id]);
  });

  it('refuses bad input with 422 and field issues rooted at input, storing nothing', async () => {
    const { sender, recipient } = await pair();
    const before = await messageCount();
    const res = await api('POST', '/api/trpc/message.create', {
      token: sender.token,
      json: messageBody(recipient.id, { rules: [{ trigger_type: 'missed_checkins', trigger_value: 0 }] }),
    });
    expect(res.status).toBe(422);
    expect(res.data.error.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', 'rules', 0, 'trigger_value'] })]));
    const e2ee = await api('POST', '/api/trpc/message.create', { token: sender.token, json: messageBody(recipient.id, { content: '', use_e2ee: true }) });
    expect(e2ee.status).toBe(422);
    const unknown = await api('POST', '/api/trpc/message.create', { token: sender.token, json: messageBody(crypto.randomUUID()) });
    expect(unknown.status).toBe(404);
    const anonymous = await api('POST', '/api/trpc/message.create', { json: messageBody(recipient.id) });
    expect(anonymous.status).toBe(401);
    expect(await messageCount()).toBe(before);
  });

  it('takes the larger body limit for message.create: 1.5 MB of audio, while another procedure stays at 1 MiB', async () => {
    const { sender, recipient } = await pair();
    const res = await api('POST', '/api/trpc/message.create', {
      token: sender.token,
      json: messageBody(recipient.id, { audio_base64: base64(audioBytes(OGG, 1_500_000)) }),
    });
    expect(res.status).toBe(200);
    expect(res.data.result.data).toMatchObject({ has_audio: true, audio_type: 'audio/ogg' });
    const other = await api('POST', '/api/trpc/message.cancel', { token: sender.token, json: { id: res.data.result.data.id, pad: 'x'.repeat(1024 * 1024) } });
    expect(other.status).toBe(413);
  });

  it('releases with message.deliver and refuses a second with CONFLICT', async () => {
    const { sender, recipient } = await pair();
    const created = await createMessage(sender, recipient.id);
    const first = await api('POST', '/api/trpc/message.deliver', { token: sender.token, json: { id: created.id } });
    expect(first.status).toBe(200);
    expect(first.data.result.data.delivered).toBe(true);
    const second = await api('POST', '/api/trpc/message.deliver', { token: sender.token, json: { id: created.id } });
    expect(second.status).toBe(409);
    expect(second.data.error.data.detail).toBe('This message was already released');
    const logs = await trpcQuery('message.logs', { id: created.id }, sender.token);
    expect(logs.data.result.data).toEqual(expect.arrayContaining([expect.objectContaining({ channel: 'inbox', success: true })]));
    // The log is the sender's: its recipient is not shown how it travelled.
    expect((await trpcQuery('message.logs', { id: created.id }, recipient.token)).status).toBe(404);
  });
});
