import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, verify, type ECDH, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * A real Web Push endpoint (runs in Node, in the vitest globalSetup), written from RFC 8030 / 8291 /
 * 8292 independently of worker/src (node:crypto, not WebCrypto):
 *
 *   POST /__subscriptions {status?, hang?}  → {id, endpoint, keys:{p256dh, auth}}: a fresh P-256 key pair
 *                                              and 16-byte auth secret kept here, like a browser's.
 *   POST /__subscriptions/{id} {status?, hang?} → change how that subscription's endpoint answers.
 *   POST /push/{id}   the push endpoint: checks `Authorization: vapid t=<JWT>, k=<key>` (ES256 signature
 *                     with k, `aud` = this server's origin, `exp` in the future and ≤ 24 h away, `sub`
 *                     mailto:/https:) → 403 if not; decrypts the aes128gcm body with the subscription's
 *                     private key and auth secret → 400 if it cannot; then answers the configured status
 *                     (201 by default; 404, 410, 429, 500 … or never, with `hang`). Unknown id → 404.
 *   GET  /__received?id={id} → every request that endpoint got, with the decrypted payload.
 */
export interface PushPeerInfo {
  /** Origin of the peer, e.g. http://127.0.0.1:41234 */
  url: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pushPeer: PushPeerInfo;
  }
}

export interface PushReceipt {
  /** What the endpoint answered. */
  status: number;
  /** null when the VAPID credentials checked out. */
  vapidError: string | null;
  /** The `k` parameter and the JWT's header and claims as received. */
  vapidKey?: string;
  jwtHeader?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  /** null when the body decrypted. */
  decryptError: string | null;
  /** The decrypted payload as UTF-8. */
  payload?: string;
  recordSize?: number;
  bodyLength: number;
  headers: { contentEncoding?: string; ttl?: string; urgency?: string; topic?: string };
}

interface Subscription {
  ecdh: ECDH;
  publicKey: Buffer;
  auth: Buffer;
  status: number;
  hang: boolean;
  received: PushReceipt[];
}

const b64u = (b: Buffer) => b.toString('base64url');

function parseVapid(header: string | undefined): { t: string; k: string } | string {
  if (!header) return 'no Authorization header';
  const m = /^vapid\s+(.*)$/i.exec(header.trim());
  if (!m?.[1]) return 'Authorization scheme is not vapid';
  const params: Record<string, string> = {};
  for (const part of m[1].split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) params[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim();
  }
  if (!params.t || !params.k) return 'vapid credentials need t and k';
  return { t: params.t, k: params.k };
}

/** RFC 8292 checks; returns the error or null, and fills in what it could read. */
function checkVapid(header: string | undefined, origin: string, receipt: PushReceipt): string | null {
  const cred = parseVapid(header);
  if (typeof cred === 'string') return cred;
  receipt.vapidKey = cred.k;
  const parts = cred.t.split('.');
  if (parts.length !== 3) return 'JWT is not three parts';
  const [h, c, s] = parts as [string, string, string];
  try {
    receipt.jwtHeader = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    receipt.claims = JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));
  } catch {
    return 'JWT header or claims are not JSON';
  }
  if (receipt.jwtHeader?.alg !== 'ES256') return 'JWT alg is not ES256';
  const point = Buffer.from(cred.k, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04) return 'k is not an uncompressed P-256 point';
  let key: KeyObject;
  try {
    key = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) },
      format: 'jwk',
    });
  } catch {
    return 'k is not on P-256';
  }
  const sig = Buffer.from(s, 'base64url');
  if (sig.length !== 64) return 'ES256 signature is not 64 bytes';
  if (!verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, sig)) {
    return 'JWT signature does not verify with k';
  }
  const claims = receipt.claims ?? {};
  if (claims.aud !== origin) return `aud ${String(claims.aud)} is not ${origin}`;
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number') return 'exp claim is missing';
  if (claims.exp <= now) return 'token has expired';
  if (claims.exp > now + 24 * 3600) return 'exp claim MUST NOT be more than 24 hours from the time of the request';
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return 'sub is not a mailto: or https: URI';
  return null;
}

/** RFC 8291 / RFC 8188 aes128gcm, single record, as a user agent decrypts it. */
function decrypt(body: Buffer, sub: Subscription, receipt: PushReceipt): string | Buffer {
  if (body.length < 21) return 'body shorter than the aes128gcm header';
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  receipt.recordSize = rs;
  const idlen = body[20]!;
  if (idlen !== 65) return `keyid length ${idlen}, expected the 65-byte sender key`;
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length < 17) return 'record too short';
  if (record.length > rs) return 'more than one record';
  let ecdhSecret: Buffer;
  try {
    ecdhSecret = sub.ecdh.computeSecret(asPublic);
  } catch {
    return 'sender key is not a P-256 point';
  }
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.publicKey, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    return 'AES-GCM authentication failed';
  }
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (end < 0 || plain[end] !== 0x02) return 'padding delimiter is not 0x02';
  return plain.subarray(0, end);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

export async function startPushPeer(project: TestProject) {
  const subs = new Map<string, Subscription>();
  let origin = '';

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', origin);
      const body = await readBody(req);
      if (req.method === 'POST' && url.pathname === '/__subscriptions') {
        const opts = body.length ? JSON.parse(body.toString('utf8')) : {};
        const ecdh = createECDH('prime256v1');
        const publicKey = ecdh.generateKeys();
        const auth = randomBytes(16);
        const id = randomBytes(12).toString('hex');
        subs.set(id, { ecdh, publicKey, auth, status: opts.status ?? 201, hang: !!opts.hang, received: [] });
        return json(res, 201, { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64u(publicKey), auth: b64u(auth) } });
      }
      const mode = /^\/__subscriptions\/([0-9a-f]+)$/.exec(url.pathname);
      if (req.method === 'POST' && mode) {
        const sub = subs.get(mode[1]!);
        if (!sub) return json(res, 404, { error: 'unknown subscription' });
        const opts = JSON.parse(body.toString('utf8') || '{}');
        if (opts.status !== undefined) sub.status = opts.status;
        if (opts.hang !== undefined) sub.hang = !!opts.hang;
        return json(res, 200, { status: sub.status, hang: sub.hang });
      }
      if (req.method === 'GET' && url.pathname === '/__received') {
        const sub = subs.get(url.searchParams.get('id') ?? '');
        if (!sub) return json(res, 404, { error: 'unknown subscription' });
        return json(res, 200, sub.received);
      }
      const push = /^\/push\/([0-9a-f]+)$/.exec(url.pathname);
      if (req.method === 'POST' && push) {
        const sub = subs.get(push[1]!);
        if (!sub) return res.writeHead(404).end();
        const h = (name: string) => {
          const v = req.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        };
        const receipt: PushReceipt = {
          status: 0,
          vapidError: null,
          decryptError: null,
          bodyLength: body.length,
          headers: { contentEncoding: h('content-encoding'), ttl: h('ttl'), urgency: h('urgency'), topic: h('topic') },
        };
        sub.received.push(receipt);
        receipt.vapidError = checkVapid(h('authorization'), origin, receipt);
        if (receipt.vapidError) {
          receipt.status = 403;
          return res.writeHead(403, { 'Content-Type': 'text/plain' }).end(`${receipt.vapidError}\n`);
        }
        const plain = receipt.headers.contentEncoding === 'aes128gcm' ? decrypt(body, sub, receipt) : 'Content-Encoding is not aes128gcm';
        if (typeof plain === 'string') {
          receipt.decryptError = plain;
          receipt.status = 400;
          return res.writeHead(400, { 'Content-Type': 'text/plain' }).end(`${plain}\n`);
        }
        receipt.payload = plain.toString('utf8');
        if (sub.hang) return; // never answer: the sender's timeout must fire (the socket closes at teardown)
        receipt.status = sub.status;
        const headers: Record<string, string> = sub.status === 201 ? { Location: `${origin}/message/${randomBytes(8).toString('hex')}` } : {};
        if (sub.status === 429) headers['Retry-After'] = '30';
        return res.writeHead(sub.status, headers).end();
      }
      res.writeHead(404).end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project.provide('pushPeer', { url: origin });
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
