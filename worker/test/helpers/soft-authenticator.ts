import { isoCBOR } from '@simplewebauthn/server/helpers';
import { toBase64Url, fromBase64Url } from '../../src/lib/encoding';

/**
 * A WebAuthn authenticator in software, for the Worker tests: it makes an ES256 credential and answers
 * challenges as a platform passkey does (W3C WebAuthn Level 3 §6.1 authenticator data, §6.5 "none"
 * attestation, §6.3.3 assertion signature over authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded).
 * The browser journeys use Chromium's own virtual authenticator instead.
 */
const enc = new TextEncoder();
const sha256 = async (b: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', b));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** ECDSA raw r‖s (WebCrypto) → ASN.1 DER SEQUENCE { INTEGER r, INTEGER s } (WebAuthn). */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (b: Uint8Array) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0) i++;
    const v = b.slice(i);
    return v[0]! & 0x80 ? concat(new Uint8Array([0]), v) : v;
  };
  const r = int(raw.slice(0, 32));
  const s = int(raw.slice(32));
  const body = concat(new Uint8Array([2, r.length]), r, new Uint8Array([2, s.length]), s);
  return concat(new Uint8Array([0x30, body.length]), body);
}

export interface SoftAuthenticatorOptions {
  /** Whether the person was verified (PIN, fingerprint): the UV flag. */
  userVerified?: boolean;
  /** The origin the browser reports in clientDataJSON. */
  origin: string;
  rpId: string;
}

export class SoftAuthenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  private keys!: CryptoKeyPair;
  private userHandle = '';
  counter = 0;

  constructor(private readonly opts: SoftAuthenticatorOptions) {}

  get id() {
    return toBase64Url(this.credentialId);
  }

  private flags(extra = 0) {
    return 0x01 | (this.opts.userVerified === false ? 0 : 0x04) | extra;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string) {
    return enc.encode(JSON.stringify({ type, challenge, origin: this.opts.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() for `options` (PublicKeyCredentialCreationOptionsJSON). */
  async create(options: Record<string, unknown>) {
    this.keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    this.userHandle = String((options.user as { id: string }).id);
    const jwk = (await crypto.subtle.exportKey('jwk', this.keys.publicKey)) as JsonWebKey;
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromBase64Url(jwk.x!)],
        [-3, fromBase64Url(jwk.y!)],
      ]),
    );
    const authData = concat(
      await sha256(enc.encode(this.opts.rpId)),
      new Uint8Array([this.flags(0x40)]),
      u32(this.counter),
      new Uint8Array(16),
      new Uint8Array([0, this.credentialId.length]),
      this.credentialId,
      cose,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: toBase64Url(this.clientData('webauthn.create', String(options.challenge))),
        attestationObject: toBase64Url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() for `options` (PublicKeyCredentialRequestOptionsJSON). */
  async get(options: Record<string, unknown>) {
    this.counter += 1;
    const authData = concat(await sha256(enc.encode(this.opts.rpId)), new Uint8Array([this.flags()]), u32(this.counter));
    const clientDataJSON = this.clientData('webauthn.get', String(options.challenge));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, this.keys.privateKey, concat(authData, await sha256(clientDataJSON))),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: toBase64Url(clientDataJSON),
        authenticatorData: toBase64Url(authData),
        signature: toBase64Url(derSignature(raw)),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
