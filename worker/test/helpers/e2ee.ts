import { E2EE_RECOVERY_INFO } from '../../src/contracts/e2ee';
import { toBase64Url } from '../../src/lib/encoding';

/** Syntactically valid v1 key-bundle parts: random bytes of the right lengths (the server never opens them). */
export const b64u = (n: number) => toBase64Url(crypto.getRandomValues(new Uint8Array(n)));
export const publicJwk = () => ({ kty: 'EC', crv: 'P-256', x: b64u(32), y: b64u(32), ext: true, key_ops: [] });
export const passwordWrap = () => ({
  v: 1,
  kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000, salt: b64u(16) },
  alg: 'A256GCM',
  iv: b64u(12),
  ct: b64u(154),
});
export const recoveryWrap = () => ({
  v: 1,
  kdf: { name: 'HKDF', hash: 'SHA-256', salt: b64u(16), info: E2EE_RECOVERY_INFO },
  alg: 'A256GCM',
  iv: b64u(12),
  ct: b64u(154),
});
export const keyBundle = () => ({ public_key: publicJwk(), password_wrap: passwordWrap(), recovery_wrap: recoveryWrap() });
