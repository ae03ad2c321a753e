import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app';
import { ATTACHMENTS_PER_MESSAGE_MAX, ATTACHMENT_MAX_BODY_BYTES } from '../src/contracts/attachments';
import { PLAN_LIMITS } from '../src/contracts/plans';
import { KEY_DOES_NOT_OPEN } from '../src/domains/attachments/read-attachments';
import { DECRYPTION_KEY_HEADER } from '../src/domains/attachments/operations';
import { toBase64, toBase64Url, toHex } from '../src/lib/encoding';
import { redactUrl } from '../src/lib/logger';
import { api, signedInUser } from './helpers/api';

type User = Awaited<ReturnType<typeof signedInUser>>;

afterEach(() => vi.restoreAllMocks());

async function setup() {
  const [sender, recipient, stranger] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
  const message = await newMessage(sender, recipient);
  return { sender, recipient, stranger, message };
}

/** A plain message that stays scheduled (only canary events fire a missed_checkins rule). */
async function newMessage(sender: User, recipient: User) {
  const res = await api('POST', '/api/message/create', {
    token: sender.token,
    json: {
      recipient_user_id: recipient.id,
      content: 'See the attached files.',
      delivery_method: 'email',
      consent: true,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 3 }],
    },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.data as { id: string };
}

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));

/**
 * AES-GCM-256 as the browser does it: a random key and IV, no AAD. The key's first byte is 0xFB so its
 * base64 starts with '+' (and its base64url with '-'): the query-string cases are always exercised.
 */
async function encrypt(plaintext: Uint8Array<ArrayBuffer>) {
  const raw = random(32);
  raw[0] = 0xfb;
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt']);
  const iv = random(12);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plaintext));
  return { ciphertext, iv, raw };
}

function form(fields: { file?: Blob | string; fileName?: string; message_id?: string; iv?: string; name?: string }) {
  const f = new FormData();
  if (fields.file !== undefined) {
    if (typeof fields.file === 'string') f.append('file', fields.file);
    else f.append('file', fields.file, fields.fileName ?? 'blob');
  }
  if (fields.message_id !== undefined) f.append('message_id', fields.message_id);
  if (fields.iv !== undefined) f.append('iv', fields.iv);
  if (fields.name !== undefined) f.append('name', fields.name);
  return f;
}

const upload = (token: string, fields: Parameters<typeof form>[0]) => api('POST', '/api/upload/encrypted-file', { token, body: form(fields) });

async function uploadOk(
  token: string,
  messageId: string,
  bytes: Uint8Array<ArrayBuffer> = random(64),
  extra: { iv?: string; name?: string; fileName?: string } = {},
) {
  const res = await upload(token, {
    file: new Blob([bytes]),
    message_id: messageId,
    iv: extra.iv ?? toBase64(random(12)),
    name: extra.name,
    fileName: extra.fileName,
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return res.data as { id: string; message_id: string; iv: string; name: string; size: number };
}

async function raw(path: string, token?: string) {
  return exports.default.fetch(new Request(`http://afterword.test${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
}

/** Rows and objects now, to compare after a refused request (storage is shared by the tests of a file). */
const stored = async () => [await attachmentCount(), await objectCount()];
const attachmentCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM message_attachments').first<{ n: number }>())!.n;
const objectCount = async () => (await env.BLOBS.list({ prefix: 'attachments/' })).objects.length;
const release = (sender: User, messageId: string) => api('POST', `/api/messages/deliver/${messageId}`, { token: sender.token });
const trpcQuery = (proc: string, input: unknown, token?: string) =>
  api('GET', `/api/trpc/${proc}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, { token });

describe('POST /api/upload/encrypted-file', () => {
  it('stores the ciphertext in R2 as application/octet-stream and the row in D1 (201)', async () => {
    const { sender, message } = await setup();
    const bytes = random(100);
    const iv = toBase64(random(12));
    const res = await upload(sender.token, { file: new Blob([bytes]), fileName: 'will.pdf', message_id: message.id, iv, name: 'Last will.pdf' });
    expect(res.status).toBe(201);
    expect(res.data).toEqual({ id: expect.any(String), message_id: message.id, iv, name: 'Last will.pdf', size: 100 });
    const object = await env.BLOBS.get(`attachments/${res.data.id}`);
    expect(object!.httpMetadata?.contentType).toBe('application/octet-stream');
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(bytes);
    const row = await env.DB.prepare('SELECT * FROM message_attachments WHERE id = ?').bind(res.data.id).first<Record<string, any>>();
    expect(row).toMatchObject({ message_id: message.id, owner_id: sender.id, r2_key: `attachments/${res.data.id}`, iv, name: 'Last will.pdf', size: 100 });
  });

  it('keeps a url-safe IV as given, names the file from its part, and strips paths and control characters', async () => {
    const { sender, message } = await setup();
    let iv = toBase64Url(random(12));
    while (!/[-_]/.test(iv)) iv = toBase64Url(random(12));
    const fromPart = await uploadOk(sender.token, message.id, random(20), { iv, fileName: 'photo.jpg' });
    expect(fromPart).toMatchObject({ iv, name: 'photo.jpg' });
    expect((await uploadOk(sender.token, message.id)).name).toBe('attachment'); // a bare Blob is named "blob"
    expect((await uploadOk(sender.token, message.id, random(20), { name: '../../etc/pass\u0007wd' })).name).toBe('passwd');
    // Uppercase message ids are the same message.
    expect((await uploadOk(sender.token, message.id.toUpperCase())).message_id).toBe(message.id);
  });

  const bad: [string, (m: string) => Parameters<typeof form>[0], (string | number)[]][] = [
    ['no file', (m) => ({ message_id: m, iv: toBase64(random(12)) }), ['body', 'file']],
    ['file as a text field', (m) => ({ file: 'x'.repeat(64), message_id: m, iv: toBase64(random(12)) }), ['body', 'file']],
    ['a file of 15 bytes', (m) => ({ file: new Blob([random(15)]), message_id: m, iv: toBase64(random(12)) }), ['body', 'file']],
    ['no message_id', () => ({ file: new Blob([random(32)]), iv: toBase64(random(12)) }), ['body', 'message_id']],
    ['a message_id that is not a UUID', () => ({ file: new Blob([random(32)]), message_id: '42', iv: toBase64(random(12)) }), ['body', 'message_id']],
    ['no iv', (m) => ({ file: new Blob([random(32)]), message_id: m }), ['body', 'iv']],
    ['an iv of 11 bytes', (m) => ({ file: new Blob([random(32)]), message_id: m, iv: toBase64(random(11)) }), ['body', 'iv']],
    ['an iv of 16 bytes', (m) => ({ file: new Blob([random(32)]), message_id: m, iv: toBase64(random(16)) }), ['body', 'iv']],
    ['an iv that is not base64', (m) => ({ file: new Blob([random(32)]), message_id: m, iv: 'not base64 at all!' }), ['body', 'iv']],
    ['a name of 256 characters', (m) => ({ file: new Blob([random(32)]), message_id: m, iv: toBase64(random(12)), name: 'n'.repeat(256) }), ['body', 'name']],
  ];
  it.each(bad)('refuses %s with 422, storing nothing', async (_name, fields, loc) => {
    const { sender, message } = await setup();
    const before = await stored();
    const res = await upload(sender.token, fields(message.id));
    expect(res.status).toBe(422);
    expect(res.data.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, msg: expect.any(String) })]));
    expect(await stored()).toEqual(before);
  });

  it('refuses a body that is not multipart (415) or not readable as multipart (400)', async () => {
    const { sender, message } = await setup();
    const json = await api('POST', '/api/upload/encrypted-file', { token: sender.token, json: { message_id: message.id } });
    expect(json.status).toBe(415);
    expect(json.data.detail).toMatch(/multipart\/form-data/);
    const garbage = await api('POST', '/api/upload/encrypted-file', {
      token: sender.token,
      body: 'this is not multipart',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.data.detail).toMatch(/Malformed multipart/);
    const noBoundary = await api('POST', '/api/upload/encrypted-file', { token: sender.token, body: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.status).toBe(400);
  });

  it('refuses a streamed body over the size cap with 413 before parsing it', async () => {
    const { sender } = await setup();
    const before = await stored();
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > ATTACHMENT_MAX_BODY_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk.slice());
      },
    });
    const res = await exports.default.fetch(
      new Request('http://afterword.test/api/upload/encrypted-file', {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'multipart/form-data; boundary=xyz' },
        // @ts-expect-error workerd needs duplex for a streamed request body in some versions
        duplex: 'half',
      }),
    );
    expect(res.status).toBe(413);
    expect(await stored()).toEqual(before);
  });

  it('404s for a message that is not yours (or does not exist), and 401 without a session', async () => {
    const { recipient, stranger, message } = await setup();
    const before = await stored();
    for (const token of [recipient.token, stranger.token]) {
      const res = await upload(token, { file: new Blob([random(32)]), message_id: message.id, iv: toBase64(random(12)) });
      expect(res).toMatchObject({ status: 404, data: { detail: 'Message not found' } });
    }
    expect((await upload(stranger.token, { file: new Blob([random(32)]), message_id: crypto.randomUUID(), iv: toBase64(random(12)) })).status).toBe(404);
    expect(
      (await api('POST', '/api/upload/encrypted-file', { body: form({ file: new Blob([random(32)]), message_id: message.id, iv: toBase64(random(12)) }) }))
        .status,
    ).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it('409s once the message is released or cancelled', async () => {
    const { sender, recipient, message } = await setup();
    const before = await stored();
    expect((await release(sender, message.id)).status).toBe(200);
    const released = await upload(sender.token, { file: new Blob([random(32)]), message_id: message.id, iv: toBase64(random(12)) });
    expect(released).toMatchObject({ status: 409, data: { detail: expect.stringMatching(/already released/) } });
    const other = await newMessage(sender, recipient);
    expect((await api('POST', `/api/message/${other.id}/cancel`, { token: sender.token })).status).toBe(200);
    const cancelled = await upload(sender.token, { file: new Blob([random(32)]), message_id: other.id, iv: toBase64(random(12)) });
    expect(cancelled).toMatchObject({ status: 409, data: { detail: expect.stringMatching(/cancelled/) } });
    expect(await stored()).toEqual(before);
  });

  it(`allows at most ${ATTACHMENTS_PER_MESSAGE_MAX} files per message`, async () => {
    const { sender, message } = await setup();
    const objectsBefore = await objectCount();
    const now = Date.now();
    const insert = env.DB.prepare(
      'INSERT INTO message_attachments (id, message_id, owner_id, r2_key, iv, name, size, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    await env.DB.batch(
      Array.from({ length: ATTACHMENTS_PER_MESSAGE_MAX }, (_, i) =>
        insert.bind(crypto.randomUUID(), message.id, sender.id, `attachments/x${i}`, toBase64(random(12)), 'f', 16, now),
      ),
    );
    const res = await upload(sender.token, { file: new Blob([random(32)]), message_id: message.id, iv: toBase64(random(12)) });
    expect(res.status).toBe(409);
    expect(await objectCount()).toBe(objectsBefore);
  });
});

describe('storage quota', () => {
  it('refuses with 403 and a detail naming the quota and the upgrade when the file does not fit the plan, and leaves nothing behind', async () => {
    const { sender, message } = await setup();
    const limit = PLAN_LIMITS.free.storageBytes;
    // Usage reached cheaply: the message's audio says it takes all but 40 bytes.
    await env.DB.prepare('UPDATE messages SET audio_bytes = ? WHERE id = ?')
      .bind(limit - 40, message.id)
      .run();
    await uploadOk(sender.token, message.id, random(40)); // exactly fills it
    const before = await stored();
    const over = await upload(sender.token, { file: new Blob([random(16)]), message_id: message.id, iv: toBase64(random(12)) });
    expect(over.status).toBe(403);
    expect(over.data.detail).toMatch(/^Storage quota exceeded: the Free plan includes 1 GB of storage/);
    expect(await stored()).toEqual(before);

    const storage = await api('GET', '/api/profile/storage', { token: sender.token });
    expect(storage).toMatchObject({ status: 200, data: { used_bytes: limit, limit_bytes: limit, plan: 'free' } });

    // A bigger plan: it fits.
    await env.DB.prepare("UPDATE users SET plan = 'plus' WHERE id = ?").bind(sender.id).run();
    await uploadOk(sender.token, message.id, random(16));
    const after = await trpcQuery('attachments.storage', undefined, sender.token);
    expect(after.data.result.data).toEqual({ used_bytes: limit + 16, limit_bytes: PLAN_LIMITS.plus.storageBytes, plan: 'plus' });
  });

  it('counts audio of all the sender’s messages and all their attachments, and nobody else’s', async () => {
    const { sender, recipient, message } = await setup();
    const second = await newMessage(sender, recipient);
    await env.DB.prepare('UPDATE messages SET audio_bytes = 1000 WHERE id IN (?, ?)').bind(message.id, second.id).run();
    await uploadOk(sender.token, message.id, random(30));
    await uploadOk(sender.token, second.id, random(20));
    expect((await api('GET', '/api/profile/storage', { token: sender.token })).data).toEqual({
      used_bytes: 2050,
      limit_bytes: PLAN_LIMITS.free.storageBytes,
      plan: 'free',
    });
    expect((await api('GET', '/api/profile/storage', { token: recipient.token })).data.used_bytes).toBe(0);
    expect((await api('GET', '/api/profile/storage')).status).toBe(401);
  });
});

describe('reading attachments', () => {
  it('lists them for the sender, and for the recipient only after release; 404 for anyone else', async () => {
    const { sender, recipient, stranger, message } = await setup();
    const a = await uploadOk(sender.token, message.id, random(30), { name: 'a.txt' });
    const b = await uploadOk(sender.token, message.id, random(40), { name: 'b.txt' });
    const list = await api('GET', `/api/message/${message.id}/attachments`, { token: sender.token });
    expect(list.status).toBe(200);
    expect(list.data).toEqual([
      { id: a.id, iv: a.iv, name: 'a.txt', size: 30, created_at: expect.any(String) },
      { id: b.id, iv: b.iv, name: 'b.txt', size: 40, created_at: expect.any(String) },
    ]);
    expect((await api('GET', `/api/message/${message.id}/attachments`, { token: recipient.token })).status).toBe(404);
    expect((await raw(`/api/attachments/${a.id}/ciphertext`, recipient.token)).status).toBe(404);
    await release(sender, message.id);
    expect((await api('GET', `/api/message/${message.id}/attachments`, { token: recipient.token })).data).toEqual(list.data);
    expect((await trpcQuery('attachments.list', { message_id: message.id }, recipient.token)).data.result.data).toEqual(list.data);
    for (const path of [
      `/api/message/${message.id}/attachments`,
      `/api/attachments/${a.id}/ciphertext`,
      `/api/download/decrypted-file/${a.id}?key=${toBase64Url(random(32))}`,
    ]) {
      expect((await raw(path, stranger.token)).status).toBe(404);
    }
    expect((await trpcQuery('attachments.list', { message_id: message.id }, stranger.token)).status).toBe(404);
    expect((await api('GET', '/api/message/not-a-uuid/attachments', { token: sender.token })).status).toBe(404);
    expect((await raw('/api/attachments/not-a-uuid/ciphertext', sender.token)).status).toBe(404);
    expect((await raw(`/api/attachments/${crypto.randomUUID()}/ciphertext`, sender.token)).status).toBe(404);
    expect((await raw(`/api/attachments/${a.id}/ciphertext`)).status).toBe(401);
  });

  it('serves the ciphertext as uploaded', async () => {
    const { sender, recipient, message } = await setup();
    const bytes = random(1234);
    const a = await uploadOk(sender.token, message.id, bytes);
    const res = await raw(`/api/attachments/${a.id}/ciphertext`, sender.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    await release(sender, message.id);
    expect(new Uint8Array(await (await raw(`/api/attachments/${a.id}/ciphertext`, recipient.token)).arrayBuffer())).toEqual(bytes);
  });
});

describe('GET /api/download/decrypted-file/{id}?key=', () => {
  it('decrypts with the key (base64 or base64url, + sent raw or encoded) and answers an attachment download', async () => {
    const { sender, recipient, message } = await setup();
    const plaintext = new Uint8Array(new TextEncoder().encode('The safe code is 4-8-15-16-23-42. — Ω'));
    const { ciphertext, iv, raw: key } = await encrypt(plaintext);
    const a = await uploadOk(sender.token, message.id, ciphertext, { iv: toBase64(iv), name: 'Notes für dich.txt' });
    expect(toBase64(key)[0]).toBe('+');
    for (const k of [encodeURIComponent(toBase64(key)), toBase64Url(key), toBase64(key)]) {
      const res = await raw(`/api/download/decrypted-file/${a.id}?key=${k}`, sender.token);
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(plaintext);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Notes f_r dich.txt"; filename*=UTF-8''Notes%20f%C3%BCr%20dich.txt`);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
    await release(sender, message.id);
    const byRecipient = await raw(`/api/download/decrypted-file/${a.id}?key=${toBase64Url(key)}`, recipient.token);
    expect(new Uint8Array(await byRecipient.arrayBuffer())).toEqual(plaintext);
  });

  it('takes the key from the X-Decryption-Key header too (so the URL carries no secret); the header wins over ?key=', async () => {
    const { sender, message } = await setup();
    const plaintext = random(90);
    const { ciphertext, iv, raw: key } = await encrypt(plaintext);
    const a = await uploadOk(sender.token, message.id, ciphertext, { iv: toBase64(iv) });
    const get = (headers: Record<string, string>, query = '') =>
      exports.default.fetch(
        new Request(`http://afterword.test/api/download/decrypted-file/${a.id}${query}`, { headers: { authorization: `Bearer ${sender.token}`, ...headers } }),
      );
    for (const k of [toBase64(key), toBase64Url(key)]) {
      const res = await get({ [DECRYPTION_KEY_HEADER]: k });
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(plaintext);
    }
    const both = await get({ 'x-decryption-key': toBase64Url(key) }, `?key=${toBase64Url(random(32))}`);
    expect(both.status).toBe(200);
    const wrong = await get({ [DECRYPTION_KEY_HEADER]: toBase64Url(random(32)) });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()) as { detail: string }).toEqual({ detail: KEY_DOES_NOT_OPEN });
    const none = await get({});
    expect(((await none.json()) as { detail: string }).detail).toContain(DECRYPTION_KEY_HEADER);
  });

  it('answers 400 for a wrong key, a malformed key and no key', async () => {
    const { sender, message } = await setup();
    const { ciphertext, iv } = await encrypt(random(50));
    const a = await uploadOk(sender.token, message.id, ciphertext, { iv: toBase64(iv) });
    const wrong = await api('GET', `/api/download/decrypted-file/${a.id}?key=${toBase64Url(random(32))}`, { token: sender.token });
    expect(wrong).toMatchObject({ status: 400, data: { detail: KEY_DOES_NOT_OPEN } });
    for (const key of [toBase64Url(random(31)), toBase64Url(random(16)), 'not*base64', '']) {
      const res = await api('GET', `/api/download/decrypted-file/${a.id}?key=${encodeURIComponent(key)}`, { token: sender.token });
      expect(res.status).toBe(400);
      expect(res.data.detail).toMatch(/^key (must be|is required)/);
    }
    expect((await api('GET', `/api/download/decrypted-file/${a.id}`, { token: sender.token })).data.detail).toMatch(/^key is required/);
    expect((await api('GET', `/api/download/decrypted-file/${a.id}?key=${toBase64Url(random(32))}`)).status).toBe(401);
  });

  it('never logs or stores the key: console output during downloads (including a failing one) has no trace of it', async () => {
    const { sender, message } = await setup();
    const plaintext = random(70);
    const { ciphertext, iv, raw: key } = await encrypt(plaintext);
    const a = await uploadOk(sender.token, message.id, ciphertext, { iv: toBase64(iv) });
    const forms = [toBase64(key), toBase64Url(key), encodeURIComponent(toBase64(key)), toHex(key)];
    const output: string[] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void output.push(args.map(String).join(' ')));
    }

    const ok = await raw(`/api/download/decrypted-file/${a.id}?key=${toBase64Url(key)}`, sender.token);
    expect(ok.status).toBe(200);
    const wrongKey = toBase64Url(random(32));
    const wrong = await api('GET', `/api/download/decrypted-file/${a.id}?key=${wrongKey}`, { token: sender.token });
    expect(wrong.text).not.toContain(wrongKey);

    // The one place a request URL is logged: an unexpected error. R2 failing mid-download gets there.
    const blobs = env.BLOBS;
    const brokenBlobs = new Proxy(blobs, {
      get(target, prop) {
        if (prop === 'get')
          return async () => {
            throw new Error('R2 unavailable');
          };
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const ctx = createExecutionContext();
    const failing = await createApp().fetch(
      new Request(`http://afterword.test/api/download/decrypted-file/${a.id}?key=${toBase64Url(key)}`, {
        headers: { authorization: `Bearer ${sender.token}` },
      }),
      { ...env, BLOBS: brokenBlobs },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(failing.status).toBe(500);

    const logged = output.join('\n');
    expect(logged).toContain(`/api/download/decrypted-file/${a.id}?key=…`);
    for (const form of forms) expect(logged).not.toContain(form);

    // Nor is it anywhere in the database.
    const { results: tables } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    ).all<{ name: string }>();
    for (const { name } of tables) {
      const { results } = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      const dump = JSON.stringify(results);
      for (const form of forms) expect(dump).not.toContain(form);
    }
  });

  it('redactUrl drops every query value, and names that are not plain identifiers', () => {
    expect(redactUrl('http://x.test/api/download/decrypted-file/1?key=abc%2Bdef&b=1')).toBe('/api/download/decrypted-file/1?key=…&b=…');
    expect(redactUrl(`http://x.test/api/download/decrypted-file/1?${toBase64Url(random(32))}`)).toBe('/api/download/decrypted-file/1?…=…');
    expect(redactUrl('http://x.test/p?key=1&key=2#frag')).toBe('/p?key=…');
    expect(redactUrl('not a url')).toBe('[unparseable url]');
  });
});
