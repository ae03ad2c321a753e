import { createRemoteJWKSet, jwtVerify } from 'jose';

/** The claims we rely on from a Google ID token (OpenID Connect core, section 2). */
export interface GoogleClaims {
  sub: string;
  email: string;
  email_verified: boolean;
}

/**
 * One key set per JWKS URL for the isolate's life: jose keeps the fetched keys (10 minutes, and fetches
 * again at once for an unknown `kid`, at most every 30 s), so a sign-in no longer waits on Google's
 * certs endpoint. Keyed by URL because GOOGLE_JWKS_URL points the tests at a local provider.
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetFor(jwksUrl: string) {
  let keys = keySets.get(jwksUrl);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUrl));
    keySets.set(jwksUrl, keys);
  }
  return keys;
}

/**
 * Verifies an RS256 ID token against the provider's JWKS and checks iss, aud and exp (at the injected
 * `now`). Returns null for anything that does not verify; the caller answers with one generic failure.
 */
export async function verifyGoogleIdToken(
  idToken: string,
  opts: { jwksUrl: string; issuers: string[]; audience: string; now: Date },
): Promise<GoogleClaims | null> {
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(idToken, keySetFor(opts.jwksUrl), {
      algorithms: ['RS256'],
      issuer: opts.issuers,
      audience: opts.audience,
      currentDate: opts.now,
      requiredClaims: ['exp'],
    }));
  } catch {
    return null;
  }
  if (typeof claims.sub !== 'string' || typeof claims.email !== 'string') return null;
  return { sub: claims.sub, email: claims.email.trim().toLowerCase(), email_verified: claims.email_verified === true || claims.email_verified === 'true' };
}
