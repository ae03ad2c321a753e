import { describe, expect, it } from 'vitest';
import { encryptPushPayload, generateSenderKeyPair, importEcdhPrivateKey } from '../../src/channels/push/encrypt';
import { generateVapidKeys, importVapid, vapidAuthorization, vapidJwt, VAPID_TOKEN_SECONDS } from '../../src/channels/push/vapid';
import { fromBase64Url, toBase64Url } from '../../src/lib/encoding';

/**
 * RFC 8291 Appendix A ("Intermediate Values for Encryption"), with the example body of section 5.
 * Source: RFC 8291 (Thomson, November 2017), read from the working group's source
 * webpush-wg/webpush-encryption draft-ietf-webpush-encryption.md; the base64url lines are joined.
 */
const RFC8291 = {
  plaintext: 'When I grow up, I want to be a watermelon',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  authSecret: 'BTBZMqHH6r4Tts7J_aSIgg',
  header: 'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  ciphertext: '8pfeW0KbunFT06SuDKoJH9Ql87S1QUrdirN6GcG7sFz1y1sqLgVi1VhjVkHsUoEsbI_0LpXMuGvnzQ',
  body:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml' +
    'mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT' +
    'pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

const te = new TextEncoder();
const td = new TextDecoder();
const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;

/**
 * A user agent's decryption (RFC 8291 + RFC 8188, one record), written here apart from the adapter:
 * WebCrypto's own HKDF rather than the adapter's HMAC-based one.
 */
async function userAgentDecrypt(body: Uint8Array, uaPublic: Uint8Array, uaPrivate: CryptoKey, auth: Uint8Array) {
  const hkdf = async (salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bits: number) => {
    const key = await crypto.subtle.importKey('raw', new Uint8Array(ikm), 'HKDF', false, ['deriveBits']);
    const params = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(salt), info: new Uint8Array(info) };
    return new Uint8Array(await crypto.subtle.deriveBits(params, key, bits));
  };
  const salt = body.slice(0, 16);
  const rs = new DataView(body.buffer, body.byteOffset).getUint32(16);
  const idlen = body[20]!;
  const asPublic = body.slice(21, 21 + idlen);
  const record = body.slice(21 + idlen);
  expect(idlen).toBe(65);
  expect(record.length).toBeLessThanOrEqual(rs);
  const asKey = await crypto.subtle.importKey('raw', asPublic, ECDH, false, []);
  const secret = new Uint8Array(await crypto.subtle.deriveBits({ name: 'ECDH', public: asKey } as unknown as SubtleCryptoDeriveKeyAlgorithm, uaPrivate, 256));
  const info = new Uint8Array([...te.encode('WebPush: info\0'), ...uaPublic, ...asPublic]);
  const ikm = await hkdf(auth, secret, info, 256);
  const cek = await hkdf(salt, ikm, te.encode('Content-Encoding: aes128gcm\0'), 128);
  const nonce = await hkdf(salt, ikm, te.encode('Content-Encoding: nonce\0'), 96);
  const aes = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['decrypt']);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, aes, record));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(0x02);
  return { plaintext: padded.slice(0, end), rs, asPublic };
}

async function rfcSender() {
  const publicKey = fromBase64Url(RFC8291.asPublic);
  return { publicKey, privateKey: await importEcdhPrivateKey(publicKey, fromBase64Url(RFC8291.asPrivate)) };
}

describe('RFC 8291 aes128gcm encryption', () => {
  it('reproduces the RFC 8291 Appendix A body byte for byte', async () => {
    const body = await encryptPushPayload(
      RFC8291.plaintext,
      { p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret },
      { salt: fromBase64Url(RFC8291.salt), sender: await rfcSender() },
    );
    // 86 header + 41 plaintext + 1 delimiter + 16 tag = 144 bytes = the RFC's 192 base64url characters.
    // (The RFC's example request says `Content-Length: 145`; its own body is 144 bytes.)
    expect(body.length).toBe(144);
    expect(toBase64Url(body.slice(0, 86))).toBe(RFC8291.header);
    expect(toBase64Url(body.slice(86))).toBe(RFC8291.ciphertext);
    expect(toBase64Url(body)).toBe(RFC8291.body);
  });

  it('the independent decryptor opens the RFC body with the user agent private key', async () => {
    const uaPublic = fromBase64Url(RFC8291.uaPublic);
    const uaPrivate = await importEcdhPrivateKey(uaPublic, fromBase64Url(RFC8291.uaPrivate));
    const out = await userAgentDecrypt(fromBase64Url(RFC8291.body), uaPublic, uaPrivate, fromBase64Url(RFC8291.authSecret));
    expect(td.decode(out.plaintext)).toBe(RFC8291.plaintext);
    expect(out.rs).toBe(4096);
  });

  it('round trip: fresh salt and ephemeral key each time, decrypts with the subscription keys', async () => {
    const ua = (await crypto.subtle.generateKey(ECDH, true, ['deriveBits'])) as CryptoKeyPair;
    const uaPublic = new Uint8Array((await crypto.subtle.exportKey('raw', ua.publicKey)) as ArrayBuffer);
    const auth = crypto.getRandomValues(new Uint8Array(16));
    const text = JSON.stringify({ title: 'A message for you', body: 'Ünïcödé ✓ 🍉', url: 'https://example.com/app/inbox/1' });
    const keys = { p256dh: toBase64Url(uaPublic), auth: toBase64Url(auth) };
    const a = await encryptPushPayload(text, keys);
    const b = await encryptPushPayload(text, keys);
    expect(toBase64Url(a.slice(0, 16))).not.toBe(toBase64Url(b.slice(0, 16))); // salt
    expect(toBase64Url(a.slice(21, 86))).not.toBe(toBase64Url(b.slice(21, 86))); // sender key
    for (const body of [a, b]) {
      const out = await userAgentDecrypt(body, uaPublic, ua.privateKey, auth);
      expect(td.decode(out.plaintext)).toBe(text);
    }
    // Another subscription's auth secret cannot open it (AES-GCM tag check).
    await expect(userAgentDecrypt(a, uaPublic, ua.privateKey, crypto.getRandomValues(new Uint8Array(16)))).rejects.toThrow();
  });

  it('padding is zeros after the 0x02 delimiter and still decrypts', async () => {
    const ua = (await crypto.subtle.generateKey(ECDH, true, ['deriveBits'])) as CryptoKeyPair;
    const uaPublic = new Uint8Array((await crypto.subtle.exportKey('raw', ua.publicKey)) as ArrayBuffer);
    const auth = crypto.getRandomValues(new Uint8Array(16));
    const body = await encryptPushPayload('hi', { p256dh: uaPublic, auth }, { padding: 30, sender: await generateSenderKeyPair() });
    expect(body.length).toBe(86 + 2 + 1 + 30 + 16);
    expect(td.decode((await userAgentDecrypt(body, uaPublic, ua.privateKey, auth)).plaintext)).toBe('hi');
  });

  it('refuses bad subscription keys and an oversize payload', async () => {
    const auth = crypto.getRandomValues(new Uint8Array(16));
    await expect(encryptPushPayload('x', { p256dh: new Uint8Array(65), auth })).rejects.toThrow(); // not a point
    await expect(encryptPushPayload('x', { p256dh: RFC8291.uaPublic, auth: new Uint8Array(8) })).rejects.toThrow(/16 bytes/);
    await expect(encryptPushPayload(new Uint8Array(4096), { p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret })).rejects.toThrow(/one record/);
  });
});

describe('RFC 8292 VAPID', () => {
  const endpoint = 'https://push.example.net:8443/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV';

  function decodeJwt(jwt: string) {
    const [h, c, s] = jwt.split('.') as [string, string, string];
    return {
      header: JSON.parse(td.decode(fromBase64Url(h))),
      claims: JSON.parse(td.decode(fromBase64Url(c))),
      input: te.encode(`${h}.${c}`),
      sig: fromBase64Url(s),
    };
  }

  it('generateVapidKeys gives a 65-byte public point and a 32-byte private scalar that import together', async () => {
    const keys = await generateVapidKeys();
    expect(fromBase64Url(keys.publicKey).length).toBe(65);
    expect(fromBase64Url(keys.publicKey)[0]).toBe(4);
    expect(fromBase64Url(keys.privateKey).length).toBe(32);
    await expect(importVapid({ ...keys, subject: 'mailto:ops@afterword.example' })).resolves.toBeTruthy();
  });

  it('the JWT is ES256, verifies with the public key, and has aud = endpoint origin, exp = now + 12 h, sub', async () => {
    const keys = await generateVapidKeys();
    const signer = await importVapid({ ...keys, subject: 'mailto:ops@afterword.example' });
    const now = 1_800_000_000;
    const jwt = decodeJwt(await vapidJwt(signer, endpoint, now));
    expect(jwt.header).toEqual({ typ: 'JWT', alg: 'ES256' });
    expect(jwt.claims).toEqual({ aud: 'https://push.example.net:8443', exp: now + 12 * 3600, sub: 'mailto:ops@afterword.example' });
    expect(VAPID_TOKEN_SECONDS).toBeLessThanOrEqual(24 * 3600);
    expect(jwt.sig.length).toBe(64);
    const pub = await crypto.subtle.importKey('raw', fromBase64Url(keys.publicKey), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    const alg = { name: 'ECDSA', hash: 'SHA-256' };
    expect(await crypto.subtle.verify(alg, pub, jwt.sig, jwt.input)).toBe(true);
    // …and not with another key, nor over altered claims.
    const other = await generateVapidKeys();
    const otherPub = await crypto.subtle.importKey('raw', fromBase64Url(other.publicKey), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    expect(await crypto.subtle.verify(alg, otherPub, jwt.sig, jwt.input)).toBe(false);
    const tampered = te.encode(`${td.decode(jwt.input).replace(/\.$/, '')}x`);
    expect(await crypto.subtle.verify(alg, pub, jwt.sig, tampered)).toBe(false);
  });

  it('the Authorization header is `vapid t=<jwt>, k=<public key>`; an https: subject works', async () => {
    const keys = await generateVapidKeys();
    const signer = await importVapid({ ...keys, subject: 'https://afterword.example/contact' });
    const header = await vapidAuthorization(signer, endpoint);
    const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header);
    expect(m).not.toBeNull();
    expect(m![2]).toBe(keys.publicKey);
    const { claims } = decodeJwt(m![1]!);
    const now = Math.floor(Date.now() / 1000);
    expect(claims.exp).toBeGreaterThan(now + 11 * 3600);
    expect(claims.exp).toBeLessThanOrEqual(now + 24 * 3600);
    expect(claims.sub).toBe('https://afterword.example/contact');
  });

  it('refuses a mismatched key pair, a malformed key and a subject that is not mailto:/https:', async () => {
    const a = await generateVapidKeys();
    const b = await generateVapidKeys();
    await expect(importVapid({ publicKey: a.publicKey, privateKey: b.privateKey, subject: 'mailto:a@b.c' })).rejects.toThrow(/does not match/);
    await expect(importVapid({ publicKey: a.publicKey.slice(0, 40), privateKey: a.privateKey, subject: 'mailto:a@b.c' })).rejects.toThrow();
    await expect(importVapid({ ...a, subject: 'ops@afterword.example' })).rejects.toThrow(/VAPID_SUBJECT/);
    await expect(importVapid({ ...a, subject: 'http://afterword.example' })).rejects.toThrow(/VAPID_SUBJECT/);
  });
});
