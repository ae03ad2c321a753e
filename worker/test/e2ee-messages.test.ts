import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { E2EE_RECOVERY_INFO } from '../src/contracts/e2ee';
import { AUDIO_MAX_BYTES, E2EE_MESSAGE_ERRORS } from '../src/contracts/messages';
import { deliverMessage } from '../src/domains/messages/delivery/deliver-message';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { toBase64, toBase64Url } from '../src/lib/encoding';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { captureQueues, messageRow } from './helpers/messages';

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Syntactically valid v1 formats: random bytes of the right lengths (the server never opens them). */
const b64u = (n: number) => toBase64Url(crypto.getRandomValues(new Uint8Array(n)));
const publicJwk = () => ({ kty: 'EC', crv: 'P-256', x: b64u(32), y: b64u(32) });
const wrapped = (kdf: Record<string, unknown>) => ({ v: 1, kdf, alg: 'A256GCM', iv: b64u(12), ct: b64u(154) });
const bundle = () => ({
  public_key: publicJwk(),
  password_wrap: wrapped({ name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000, salt: b64u(16) }),
  recovery_wrap: wrapped({ name: 'HKDF', hash: 'SHA-256', salt: b64u(16), info: E2EE_RECOVERY_INFO }),
});
const recipientWrap = (kid: string) => ({ kid, alg: 'ECDH-ES+HKDF-SHA256+A256GCM', epk: publicJwk(), salt: b64u(16), iv: b64u(12), wrapped: b64u(48) });
function envelope(kids: string[], overrides: Record<string, unknown> = {}) {
  return { v: 1, alg: 'A256GCM', iv: b64u(12), ct: b64u(300), recipients: kids.map(recipientWrap), ...overrides };
}

async function withKeys(user: User) {
  const res = await api('PUT', '/api/keys/me', { token: user.token, json: bundle() });
  if (res.status !== 201) throw new Error(`keys failed: ${res.status} ${res.text}`);
  return user;
}

/** Sender and recipient, both with keys. */
async function pair() {
  const [sender, recipient] = await Promise.all([signedInUser().then(withKeys), signedInUser().then(withKeys)]);
  return { sender, recipient };
}

function sealedBody(sender: User, recipient: User, overrides: Record<string, unknown> = {}) {
  return {
    recipient_user_id: recipient.id,
    content: '',
    use_e2ee: true,
    content_encrypted: JSON.stringify(envelope([recipient.id, sender.id])),
    delivery_method: 'email',
    consent: true,
    rules: [{ trigger_type: 'missed_checkins', trigger_value: 3 }],
    ...overrides,
  };
}

const count = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
const audioObjects = async () => (await env.BLOBS.list({ prefix: 'messages/' })).objects.length;
function base64(bytes: Uint8Array) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

describe('POST /api/message/create with use_e2ee', () => {
  it('stores the envelope as given, with empty content, and gives it back to the sender', async () => {
    const { sender, recipient } = await pair();
    const body = sealedBody(sender, recipient);
    const res = await api('POST', '/api/message/create', { token: sender.token, json: body });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ use_e2ee: true, content: '', content_encrypted: body.content_encrypted, status: 'scheduled', has_audio: false });
    const row = await messageRow(res.data.id);
    expect(row).toMatchObject({ use_e2ee: 1, content: '', content_encrypted: body.content_encrypted });
    expect((await api('GET', `/api/message/${res.data.id}`, { token: sender.token })).data.message.content_encrypted).toBe(body.content_encrypted);
  });

  it('accepts the recipient kid in upper case', async () => {
    const { sender, recipient } = await pair();
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: sealedBody(sender, recipient, { content_encrypted: JSON.stringify(envelope([recipient.id.toUpperCase()])) }),
    });
    expect(res.status).toBe(201);
  });

  const refusals: [string, (s: User, r: User) => Record<string, unknown>, (string | number)[], string | RegExp][] = [
    ['non-empty content', () => ({ content: 'the plaintext, by mistake' }), ['body', 'content'], E2EE_MESSAGE_ERRORS.contentNotEmpty],
    ['whitespace content', () => ({ content: ' ' }), ['body', 'content'], E2EE_MESSAGE_ERRORS.contentNotEmpty],
    ['no content_encrypted', () => ({ content_encrypted: undefined }), ['body', 'content_encrypted'], E2EE_MESSAGE_ERRORS.envelopeMissing],
    ['null content_encrypted', () => ({ content_encrypted: null }), ['body', 'content_encrypted'], E2EE_MESSAGE_ERRORS.envelopeMissing],
    ['content_encrypted that is not JSON', () => ({ content_encrypted: 'ciphertext' }), ['body', 'content_encrypted'], 'content_encrypted is not JSON'],
    [
      'an envelope of version 2',
      (_s, r) => ({ content_encrypted: JSON.stringify(envelope([r.id], { v: 2 })) }),
      ['body', 'content_encrypted'],
      /not a v1 envelope: v/,
    ],
    [
      'an envelope with an 8-byte iv',
      (_s, r) => ({ content_encrypted: JSON.stringify(envelope([r.id], { iv: b64u(8) })) }),
      ['body', 'content_encrypted'],
      /iv must encode 12 bytes/,
    ],
    ['an envelope without recipients', () => ({ content_encrypted: JSON.stringify(envelope([])) }), ['body', 'content_encrypted'], /recipients/],
    [
      'an envelope with 5 recipients',
      (s, r) => ({ content_encrypted: JSON.stringify(envelope([r.id, s.id, crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()])) }),
      ['body', 'content_encrypted'],
      /recipients/,
    ],
    [
      'a wrap whose epk carries a private key',
      (_s, r) => ({ content_encrypted: JSON.stringify(envelope([r.id], { recipients: [{ ...recipientWrap(r.id), epk: { ...publicJwk(), d: b64u(32) } }] })) }),
      ['body', 'content_encrypted'],
      /epk/,
    ],
    [
      'an envelope with a key for the sender only',
      (s) => ({ content_encrypted: JSON.stringify(envelope([s.id])) }),
      ['body', 'content_encrypted'],
      E2EE_MESSAGE_ERRORS.noRecipientWrap,
    ],
    [
      'sealed audio shorter than its tag',
      () => ({ audio_base64: base64(crypto.getRandomValues(new Uint8Array(15))) }),
      ['body', 'audio_base64'],
      /at least 16 bytes/,
    ],
    ['sealed audio that is not base64', () => ({ audio_base64: '!!!' }), ['body', 'audio_base64'], 'audio_base64 is not valid base64'],
  ];
  it.each(refusals)('refuses %s with 422, storing nothing', async (_name, overrides, loc, msg) => {
    const { sender, recipient } = await pair();
    const [messages, blobs] = [await count('messages'), await audioObjects()];
    const res = await api('POST', '/api/message/create', { token: sender.token, json: sealedBody(sender, recipient, overrides(sender, recipient)) });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([expect.objectContaining({ loc, msg: typeof msg === 'string' ? msg : expect.stringMatching(msg) })]);
    expect(await count('messages')).toBe(messages);
    expect(await audioObjects()).toBe(blobs);
  });

  it('refuses a recipient without keys with 422, and an unknown recipient with 404', async () => {
    const sender = await withKeys(await signedInUser());
    const noKeys = await signedInUser();
    const res = await api('POST', '/api/message/create', { token: sender.token, json: sealedBody(sender, noKeys) });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([{ loc: ['body', 'recipient_user_id'], msg: E2EE_MESSAGE_ERRORS.recipientHasNoKeys, type: 'e2ee_no_keys' }]);
    const ghost = { id: crypto.randomUUID() } as User;
    expect((await api('POST', '/api/message/create', { token: sender.token, json: sealedBody(sender, ghost) })).status).toBe(404);
  });

  it('refuses content_encrypted on a message without use_e2ee, and accepts null there', async () => {
    const { sender, recipient } = await pair();
    const before = await count('messages');
    const plain = { recipient_user_id: recipient.id, content: 'plain', delivery_method: 'email', consent: true };
    const res = await api('POST', '/api/message/create', {
      token: sender.token,
      json: { ...plain, content_encrypted: JSON.stringify(envelope([recipient.id])) },
    });
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual([{ loc: ['body', 'content_encrypted'], msg: E2EE_MESSAGE_ERRORS.notE2ee, type: 'e2ee_required' }]);
    const explicitFalse = await api('POST', '/api/message/create', { token: sender.token, json: { ...plain, use_e2ee: false, content_encrypted: '' } });
    expect(explicitFalse.status).toBe(422);
    expect(await count('messages')).toBe(before);
    const ok = await api('POST', '/api/message/create', { token: sender.token, json: { ...plain, content_encrypted: null } });
    expect(ok.status).toBe(201);
    expect(ok.data).toMatchObject({ use_e2ee: false, content_encrypted: null });
  });

  const digest = async (data: ArrayBuffer | Uint8Array<ArrayBuffer>) => toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));

  it('stores sealed audio of 10 MB + 16 bytes as opaque bytes (no magic-byte check)', async () => {
    const { sender, recipient } = await pair();
    const sealed = new Uint8Array(AUDIO_MAX_BYTES + 16);
    for (let i = 0; i < sealed.length; i += 65536) crypto.getRandomValues(sealed.subarray(i, i + 65536));
    sealed.set([0x89, 0x50, 0x4e, 0x47]); // a PNG header: refused as audio in a plain message
    const res = await api('POST', '/api/message/create', { token: sender.token, json: sealedBody(sender, recipient, { audio_base64: base64(sealed) }) });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ has_audio: true, audio_type: 'application/octet-stream' });
    const object = await env.BLOBS.get(`messages/${res.data.id}/audio`);
    expect(object!.httpMetadata?.contentType).toBe('application/octet-stream');
    expect(await digest(await object!.arrayBuffer())).toBe(await digest(sealed));
    expect((await messageRow(res.data.id))!.audio_bytes).toBe(AUDIO_MAX_BYTES + 16);
  });

  it('refuses sealed audio one byte over 10 MB + 16 bytes with 413, storing nothing', async () => {
    const { sender, recipient } = await pair();
    const before = [await count('messages'), await audioObjects()];
    const big = await api('POST', '/api/message/create', {
      token: sender.token,
      json: sealedBody(sender, recipient, { audio_base64: base64(new Uint8Array(AUDIO_MAX_BYTES + 17)) }),
    });
    expect(big.status).toBe(413);
    expect([await count('messages'), await audioObjects()]).toEqual(before);
  });

  it('works over tRPC with the same refusals', async () => {
    const { sender, recipient } = await pair();
    const ok = await api('POST', '/api/trpc/message.create', { token: sender.token, json: sealedBody(sender, recipient) });
    expect(ok.status).toBe(200);
    expect(ok.data.result.data).toMatchObject({ use_e2ee: true, content: '' });
    const bad = await api('POST', '/api/trpc/message.create', { token: sender.token, json: sealedBody(sender, recipient, { content: 'oops' }) });
    expect(bad.status).toBe(422);
    expect(bad.data.error.data.detail).toEqual([expect.objectContaining({ loc: ['body', 'content'], msg: E2EE_MESSAGE_ERRORS.contentNotEmpty })]);
  });
});

describe('delivery of an E2EE message', () => {
  it('sends only a notice: the outbox row holds neither the envelope nor any part of it', async () => {
    const { sender, recipient } = await pair();
    const env1 = envelope([recipient.id, sender.id]);
    const contentEncrypted = JSON.stringify(env1);
    const deliverAt = Date.now() + 60_000;
    const created = await api('POST', '/api/message/create', {
      token: sender.token,
      json: sealedBody(sender, recipient, { content_encrypted: contentEncrypted, rules: [], deliver_at: new Date(deliverAt).toISOString() }),
    });
    expect(created.status).toBe(201);
    const id = created.data.id as string;
    const { jobs } = await captureQueues(() => advanceMessage(servicesAt(deliverAt), id, 'direct'));
    const deliveryId = jobs.find((j) => j.queue === 'DELIVERIES')!.body.delivery_id as string;
    await captureQueues(() => deliverMessage(servicesAt(deliverAt + 1000), deliveryId));

    const { results } = await env.DB.prepare('SELECT * FROM outbox_messages WHERE idempotency_key = ?')
      .bind(`delivery:${deliveryId}`)
      .all<Record<string, any>>();
    expect(results).toHaveLength(1);
    const row = results[0]!;
    expect(row).toMatchObject({ channel: 'email', address: recipient.email });
    expect(row.text).toMatch(/end-to-end encrypted message/);
    const stored = JSON.stringify(row);
    const parts = [contentEncrypted, env1.iv, env1.ct, env1.ct.slice(0, 24), ...env1.recipients.flatMap((w) => [w.wrapped, w.salt, w.iv, w.epk.x, w.epk.y])];
    for (const part of parts) expect(stored).not.toContain(part);
    for (const marker of ['A256GCM', 'ECDH-ES', '"recipients"', '"ct"', 'content_encrypted']) expect(stored).not.toContain(marker);
    expect((await messageRow(id))!.status).toBe('delivered');

    // The recipient's app gets the envelope from the inbox, to open it locally.
    const read = await api('GET', `/api/message/${id}`, { token: recipient.token });
    expect(read.data).toMatchObject({ role: 'recipient', message: { use_e2ee: true, content: '', content_encrypted: contentEncrypted } });
  });
});

describe('GET /api/message/{id}/audio of an E2EE message', () => {
  it('answers the ciphertext as application/octet-stream', async () => {
    const { sender, recipient } = await pair();
    const sealed = crypto.getRandomValues(new Uint8Array(64));
    const created = await api('POST', '/api/message/create', { token: sender.token, json: sealedBody(sender, recipient, { audio_base64: base64(sealed) }) });
    const res = await exports.default.fetch(
      new Request(`http://afterword.test/api/message/${created.data.id}/audio`, { headers: { authorization: `Bearer ${sender.token}` } }),
    );
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(sealed);
  });
});
