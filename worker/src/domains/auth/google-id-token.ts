import { fromBase64Url } from '../../lib/encoding';

/** The claims we rely on from a Google ID token (OpenID Connect core, section 2). */
export interface GoogleClaims {
  sub: string;
  email: string;
  email_verified: boolean;
}

interface Jwk extends JsonWebKey {
  kid?: string;
}

const decodeJson = (part: string) => JSON.parse(new TextDecoder().decode(fromBase64Url(part)));

/**
 * Verifies an RS256 ID token against the provider's JWKS and checks iss, aud and exp.
 * Returns null for anything that does not verify; the caller answers with one generic failure.
 */
export async function verifyGoogleIdToken(
  idToken: string,
  opts: { jwksUrl: string; issuers: string[]; audience: string; now: Date },
): Promise<GoogleClaims | null> {
  const parts = idToken.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  let header: { alg?: string; kid?: string };
  let claims: Record<string, unknown>;
  try {
    header = decodeJson(h);
    claims = decodeJson(p);
  } catch {
    return null;
  }
  if (header.alg !== 'RS256') return null;

  const res = await fetch(opts.jwksUrl);
  if (!res.ok) return null;
  const { keys } = (await res.json()) as { keys: Jwk[] };
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) return null;
  const key = await crypto.subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
  const valid = await crypto.subtle.verify('RSASSA-PKCS1-v1_5', key, fromBase64Url(s), new TextEncoder().encode(`${h}.${p}`));
  if (!valid) return null;

  const aud = claims.aud;
  const audOk = Array.isArray(aud) ? aud.includes(opts.audience) : aud === opts.audience;
  const exp = Number(claims.exp);
  if (!audOk || !opts.issuers.includes(String(claims.iss)) || !(exp * 1000 > opts.now.getTime())) return null;
  if (typeof claims.sub !== 'string' || typeof claims.email !== 'string') return null;
  return { sub: claims.sub, email: claims.email.trim().toLowerCase(), email_verified: claims.email_verified === true || claims.email_verified === 'true' };
}
