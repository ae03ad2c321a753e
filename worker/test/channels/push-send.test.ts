import { describe, expect, inject, it } from 'vitest';
import type { OutgoingMessage, PushSubscriptionJson } from '../../src/channels/types';
import { createPushChannel, pushPayload, sendWebPush, type SendWebPushOptions } from '../../src/channels/push/send';
import { MAX_PUSH_PLAINTEXT_BYTES } from '../../src/channels/push/encrypt';
import { generateVapidKeys, importVapid, type VapidSigner } from '../../src/channels/push/vapid';
import type { PushReceipt } from '../peers/push';

/** The real push endpoint started by test/peers/push.ts in the vitest globalSetup (Node). */
const peer = inject('pushPeer');

interface PeerSubscription extends PushSubscriptionJson {
  id: string;
}

async function subscribe(opts: { status?: number; hang?: boolean } = {}): Promise<PeerSubscription> {
  const res = await fetch(`${peer.url}/__subscriptions`, { method: 'POST', body: JSON.stringify(opts) });
  expect(res.status).toBe(201);
  return res.json();
}

async function received(sub: PeerSubscription): Promise<PushReceipt[]> {
  const res = await fetch(`${peer.url}/__received?id=${sub.id}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function newVapid() {
  const keys = await generateVapidKeys();
  const signer = await importVapid({ ...keys, subject: 'mailto:ops@afterword.example' });
  return { keys, signer };
}

function options(vapid: VapidSigner, extra: Partial<SendWebPushOptions> = {}): SendWebPushOptions {
  return { vapid, ttl: 3600, urgency: 'high', allowInsecureEndpoint: true, ...extra };
}

describe('Web Push against a real push endpoint', () => {
  it('provide/inject hands the peer to tests running in workerd', () => {
    expect(peer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('delivers: the endpoint verifies the VAPID JWT, decrypts, and the payload is what was sent', async () => {
    const { keys, signer } = await newVapid();
    const sub = await subscribe();
    const payload = JSON.stringify({ title: 'A message from Ana', body: 'Open Afterword to read it 🍉', url: 'https://a.example/app/inbox/7' });
    const result = await sendWebPush(sub, payload, options(signer, { ttl: 600, urgency: 'normal', topic: 'release-7' }));
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.providerId).toMatch(new RegExp(`^${peer.url}/message/`));

    const [r, ...more] = await received(sub);
    expect(more).toHaveLength(0);
    expect(r!.vapidError).toBeNull();
    expect(r!.decryptError).toBeNull();
    expect(r!.payload).toBe(payload);
    expect(r!.status).toBe(201);
    expect(r!.vapidKey).toBe(keys.publicKey);
    expect(r!.jwtHeader).toEqual({ typ: 'JWT', alg: 'ES256' });
    expect(r!.claims!.aud).toBe(peer.url);
    expect(r!.claims!.sub).toBe('mailto:ops@afterword.example');
    const now = Math.floor(Date.now() / 1000);
    expect(r!.claims!.exp as number).toBeGreaterThan(now + 11 * 3600);
    expect(r!.claims!.exp as number).toBeLessThanOrEqual(now + 12 * 3600 + 5);
    expect(r!.headers).toEqual({ contentEncoding: 'aes128gcm', ttl: '600', urgency: 'normal', topic: 'release-7' });
    expect(r!.recordSize).toBe(4096);
  });

  it('the channel from env sends {title, body, url} with high urgency and a stable topic per delivery', async () => {
    const { keys } = await newVapid();
    const channel = createPushChannel({
      PUSH_TRANSPORT: 'webpush',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'https://afterword.example/contact',
      PUSH_ALLOW_INSECURE_ENDPOINTS: 'true',
    })!;
    expect(channel.kind).toBe('push');
    const sub = await subscribe();
    const message: OutgoingMessage = {
      idempotencyKey: 'msg_123:push',
      subject: 'You have a message from Ana',
      text: 'Ana left you an end-to-end encrypted message. Open it in your inbox.',
      link: 'https://afterword.example/app/inbox/msg_123',
    };
    expect(await channel.send(sub, message)).toMatchObject({ ok: true });
    expect(await channel.send(sub, message)).toMatchObject({ ok: true }); // a retry of the same delivery
    const [a, b] = await received(sub);
    expect(JSON.parse(a!.payload!)).toEqual({ title: message.subject, body: message.text, url: message.link });
    expect(a!.vapidError).toBeNull();
    expect(a!.claims!.sub).toBe('https://afterword.example/contact');
    expect(a!.headers.urgency).toBe('high');
    expect(Number(a!.headers.ttl)).toBe(28 * 24 * 3600);
    expect(a!.headers.topic).toMatch(/^[\w-]{32}$/);
    expect(b!.headers.topic).toBe(a!.headers.topic);
    await channel.send(sub, { ...message, idempotencyKey: 'msg_124:push' });
    expect((await received(sub))[2]!.headers.topic).not.toBe(a!.headers.topic);
  });

  it('a long message is shortened to fit one record and still arrives decrypted', async () => {
    const { signer } = await newVapid();
    const sub = await subscribe();
    const text = `${'Dear Sam, '.repeat(10_000)}END`;
    const json = pushPayload({ idempotencyKey: 'k', subject: 'Long', text, link: 'https://a.example/app/inbox/9' });
    expect(new TextEncoder().encode(json).length).toBeLessThanOrEqual(MAX_PUSH_PLAINTEXT_BYTES);
    expect(await sendWebPush(sub, json, options(signer))).toMatchObject({ ok: true });
    const body = JSON.parse((await received(sub))[0]!.payload!);
    expect(body.body.endsWith('…')).toBe(true);
    expect(text.startsWith(body.body.slice(0, -1))).toBe(true);
    expect(body.url).toBe('https://a.example/app/inbox/9');
  });

  for (const status of [404, 410]) {
    it(`${status} → gone (remove the subscription), not retryable`, async () => {
      const { signer } = await newVapid();
      const sub = await subscribe({ status });
      const result = await sendWebPush(sub, 'x', options(signer));
      expect(result).toEqual({ ok: false, retryable: false, gone: true, status, error: expect.stringContaining(String(status)) });
      // the endpoint did receive, verify and decrypt it before answering
      expect((await received(sub))[0]).toMatchObject({ status, vapidError: null, decryptError: null, payload: 'x' });
    });
  }

  it('an endpoint the push service no longer knows (404) is gone', async () => {
    const { signer } = await newVapid();
    const sub = await subscribe();
    const result = await sendWebPush({ ...sub, endpoint: `${peer.url}/push/00000000` }, 'x', options(signer));
    expect(result).toMatchObject({ ok: false, gone: true, retryable: false, status: 404 });
  });

  for (const status of [429, 500, 503]) {
    it(`${status} → retryable, not gone`, async () => {
      const { signer } = await newVapid();
      const sub = await subscribe({ status });
      const result = await sendWebPush(sub, 'x', options(signer));
      expect(result).toMatchObject({ ok: false, retryable: true, status });
      expect(!result.ok && result.gone).toBeFalsy();
      expect((await received(sub))[0]!.payload).toBe('x');
    });
  }

  for (const status of [400, 403, 413]) {
    it(`${status} → not retryable, not gone`, async () => {
      const { signer } = await newVapid();
      const sub = await subscribe({ status });
      const result = await sendWebPush(sub, 'x', options(signer));
      expect(result).toMatchObject({ ok: false, retryable: false, status });
      expect(!result.ok && result.gone).toBeFalsy();
    });
  }

  it('the endpoint really checks the signature: a JWT signed by another key is refused with 403', async () => {
    const a = await newVapid();
    const b = await newVapid();
    // The private key of b under the public key of a (importVapid refuses such a pair; built by hand here).
    const forged: VapidSigner = { publicKey: a.keys.publicKey, subject: 'mailto:ops@afterword.example', key: b.signer.key };
    const sub = await subscribe();
    const result = await sendWebPush(sub, 'x', options(forged));
    expect(result).toMatchObject({ ok: false, retryable: false, status: 403 });
    const [r] = await received(sub);
    expect(r!.vapidError).toBe('JWT signature does not verify with k');
    expect(r!.payload).toBeUndefined();
  });

  it('the endpoint really decrypts: keys of another subscription give 400, not retryable', async () => {
    const { signer } = await newVapid();
    const sub = await subscribe();
    const other = await subscribe();
    const result = await sendWebPush({ ...sub, keys: other.keys }, 'x', options(signer));
    expect(result).toMatchObject({ ok: false, retryable: false, status: 400 });
    expect((await received(sub))[0]).toMatchObject({ vapidError: null, decryptError: 'AES-GCM authentication failed' });
  });

  it('a push service that never answers times out → retryable', async () => {
    const { signer } = await newVapid();
    const sub = await subscribe({ hang: true });
    const started = Date.now();
    const result = await sendWebPush(sub, 'x', options(signer, { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, retryable: true, error: expect.stringContaining('300 ms') });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await received(sub))[0]!.payload).toBe('x'); // it got there; the answer never came
  });

  it('an unreachable push service → retryable', async () => {
    const { signer } = await newVapid();
    const sub = await subscribe();
    const result = await sendWebPush({ ...sub, endpoint: 'http://127.0.0.1:1/push/x' }, 'x', options(signer));
    expect(result).toMatchObject({ ok: false, retryable: true, error: 'push service unreachable' });
  });

  it('refuses http endpoints unless allowed, bad stored keys and bad topics — nothing is sent', async () => {
    const { signer } = await newVapid();
    const sub = await subscribe();
    expect(await sendWebPush(sub, 'x', options(signer, { allowInsecureEndpoint: false }))).toMatchObject({
      ok: false,
      retryable: false,
      error: 'push endpoint must be https',
    });
    expect(await sendWebPush({ ...sub, keys: { p256dh: 'AAAA', auth: sub.keys.auth } }, 'x', options(signer))).toMatchObject({
      ok: false,
      retryable: false,
      error: 'invalid push subscription keys',
    });
    expect(await sendWebPush(sub, 'x', options(signer, { topic: 'has spaces' }))).toMatchObject({ ok: false, retryable: false });
    expect(await sendWebPush(sub, new Uint8Array(MAX_PUSH_PLAINTEXT_BYTES + 1), options(signer))).toMatchObject({
      ok: false,
      retryable: false,
      error: 'push payload too large',
    });
    expect(await received(sub)).toHaveLength(0);
  });
});

describe('createPushChannel', () => {
  it('outbox (or unset) → null: the outbox adapter handles push', () => {
    expect(createPushChannel({})).toBeNull();
    expect(createPushChannel({ PUSH_TRANSPORT: 'outbox' })).toBeNull();
  });

  it('webpush without VAPID keys, or an unknown transport, is a configuration error', () => {
    expect(() => createPushChannel({ PUSH_TRANSPORT: 'webpush' })).toThrow(/VAPID_PUBLIC_KEY/);
    expect(() => createPushChannel({ PUSH_TRANSPORT: 'fcm' })).toThrow(/webpush or outbox/);
  });

  it('refuses http endpoints unless PUSH_ALLOW_INSECURE_ENDPOINTS=true', async () => {
    const { keys } = await newVapid();
    const channel = createPushChannel({
      PUSH_TRANSPORT: 'webpush',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@afterword.example',
    })!;
    const sub = await subscribe();
    const result = await channel.send(sub, { idempotencyKey: 'k', subject: 's', text: 't' });
    expect(result).toMatchObject({ ok: false, retryable: false, error: 'push endpoint must be https' });
    expect(await received(sub)).toHaveLength(0);
  });
});
