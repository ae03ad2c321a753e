// Password hashing adapter. scrypt runs natively in workerd through node:crypto (nodejs_compat);
// on a runtime without node:crypto this is the one file to swap (docs/decisions/password-hashing.md).
import { scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { fromBase64Url, toBase64Url } from './encoding';

/**
 * OWASP's scrypt row N=2^14, r=8, p=5 (16 MiB per hash, well inside a Worker's 128 MB), chosen over
 * PBKDF2 because production Workers cap WebCrypto PBKDF2 at 100,000 iterations, a sixth of OWASP's
 * 600,000 for PBKDF2-SHA256. Parameters are stored with every hash, so they can be raised later and
 * old hashes re-hashed at the next successful login.
 */
export const SCRYPT_PARAMS = { N: 2 ** 14, r: 8, p: 5, keyLength: 32 } as const;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keyLength: number;
}

export function scrypt(password: string | Uint8Array, salt: Uint8Array, params: ScryptParams): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, params.keyLength, { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key)),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(password: string, params: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await scrypt(password.normalize('NFKC'), salt, params);
  return ['scrypt', params.N, params.r, params.p, toBase64Url(salt), toBase64Url(key)].join('$');
}

export interface VerifyResult {
  ok: boolean;
  /** True when the stored hash used weaker parameters than today's: re-hash after a good login. */
  needsRehash: boolean;
}

export async function verifyPassword(password: string, stored: string): Promise<VerifyResult> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return { ok: false, needsRehash: false };
  const params = { N: Number(n), r: Number(r), p: Number(p), keyLength: fromBase64Url(hash).byteLength };
  const key = await scrypt(password.normalize('NFKC'), fromBase64Url(salt), params);
  const ok = timingSafeEqual(key, fromBase64Url(hash));
  const needsRehash = params.N < SCRYPT_PARAMS.N || params.r < SCRYPT_PARAMS.r || params.p < SCRYPT_PARAMS.p;
  return { ok, needsRehash };
}

/**
 * A hash of a password nobody has, verified when the email is unknown so that a wrong email and a
 * wrong password cost the same time (no account enumeration by timing).
 */
let decoyHash: Promise<string> | undefined;
export const getDecoyHash = () => (decoyHash ??= hashPassword(toBase64Url(crypto.getRandomValues(new Uint8Array(24)))));
