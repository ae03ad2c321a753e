import { schema } from '@afterword/db';
import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from 'arctic';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Bindings, ServiceContext } from '../../env';
import { ZGoogleSignInStart } from '../../contracts/auth';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { parseOrThrow } from '../../lib/validation';
import type { AppEnv } from '../../middleware/context';
import { verifyGoogleIdToken } from './google-id-token';
import { createSession } from './sessions';

const GOOGLE = {
  auth: 'https://accounts.google.com/o/oauth2/v2/auth',
  token: 'https://oauth2.googleapis.com/token',
  jwks: 'https://www.googleapis.com/oauth2/v3/certs',
  issuers: ['https://accounts.google.com', 'accounts.google.com'],
};
const COOKIE = 'afw_google_oauth';
const CALLBACK_PATH = '/api/auth/google/callback';

function googleConfig(env: Bindings) {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) {
    throw new AppError('NOT_FOUND', 'Google sign-in is not configured on this server');
  }
  return {
    client: new OAuth2Client(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, new URL(CALLBACK_PATH, env.PUBLIC_ORIGIN).toString()),
    clientId: env.GOOGLE_CLIENT_ID,
    authUrl: env.GOOGLE_AUTH_URL ?? GOOGLE.auth,
    tokenUrl: env.GOOGLE_TOKEN_URL ?? GOOGLE.token,
    jwksUrl: env.GOOGLE_JWKS_URL ?? GOOGLE.jwks,
    issuers: env.GOOGLE_ISSUER ? [env.GOOGLE_ISSUER] : GOOGLE.issuers,
  };
}

/**
 * GET /api/auth/google: authorization code flow with PKCE (S256) and state, kept in a short cookie.
 * The login page's `client_state` (contracts/auth.ts) rides in the same cookie and comes back in the
 * fragment: the server's state protects the callback, the client's protects the page that takes the token.
 */
export function startGoogleSignIn(c: Context<AppEnv>) {
  const cfg = googleConfig(c.env);
  const { client_state: clientState = '' } = parseOrThrow(ZGoogleSignInStart, c.req.query(), 'query');
  const state = generateState();
  const verifier = generateCodeVerifier();
  const url = cfg.client.createAuthorizationURLWithPKCE(cfg.authUrl, state, CodeChallengeMethod.S256, verifier, ['openid', 'email']);
  // All three parts are base64url, so '.' separates them unambiguously.
  setCookie(c, COOKIE, `${state}.${verifier}.${clientState}`, {
    path: CALLBACK_PATH,
    httpOnly: true,
    secure: new URL(c.env.PUBLIC_ORIGIN).protocol === 'https:',
    sameSite: 'Lax',
    maxAge: 600,
  });
  return c.redirect(url.toString(), 302);
}

/** `/login#…` with the result and, when the login page sent one, its client state (on errors too). */
function handBack(c: Context<AppEnv>, result: Record<string, string>, clientState: string | undefined) {
  const fragment = new URLSearchParams(result);
  if (clientState) fragment.set('state', clientState);
  return c.redirect(`/login#${fragment}`, 302);
}

/**
 * GET /api/auth/google/callback: checks state, exchanges the code, verifies the ID token and signs in
 * (or creates) the account of a verified email. The token reaches the SPA in the URL fragment, which
 * browsers never send to servers, so it stays out of every access log.
 */
export async function finishGoogleSignIn(c: Context<AppEnv>) {
  const cfg = googleConfig(c.env);
  const [state, verifier, clientState] = (getCookie(c, COOKIE) ?? '').split('.');
  const fail = (reason: string) => {
    log.warn('google sign-in refused', { reason, request_id: c.get('requestId') });
    deleteCookie(c, COOKIE, { path: CALLBACK_PATH });
    return handBack(c, { error: 'Google sign-in failed. Please try again.' }, clientState);
  };
  const code = c.req.query('code');
  if (!state || !verifier || !code || c.req.query('state') !== state) return fail('state mismatch');

  let idToken: string;
  try {
    const tokens = await cfg.client.validateAuthorizationCode(cfg.tokenUrl, code, verifier);
    idToken = tokens.idToken();
  } catch (err) {
    return fail(`code exchange failed: ${err instanceof Error ? err.message : 'unknown'}`);
  }
  const services = c.get('services');
  const claims = await verifyGoogleIdToken(idToken, { jwksUrl: cfg.jwksUrl, issuers: cfg.issuers, audience: cfg.clientId, now: services.now() });
  if (!claims) return fail('id token did not verify');
  if (!claims.email_verified) return fail('email not verified');

  const userId = await findOrCreateGoogleUser(services, claims);
  const session = await createSession(services, userId, 'google');
  deleteCookie(c, COOKIE, { path: CALLBACK_PATH });
  return handBack(c, { access_token: session.access_token, token_type: 'bearer', expires_in: String(session.expires_in) }, clientState);
}

/** Same Google subject → same account; a verified email that already has an account is linked to it. */
async function findOrCreateGoogleUser(ctx: ServiceContext, claims: { sub: string; email: string }) {
  const [bySub] = await ctx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.google_sub, claims.sub)).limit(1);
  if (bySub) return bySub.id;
  const [byEmail] = await ctx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, claims.email)).limit(1);
  if (byEmail) {
    await ctx.db.update(schema.users).set({ google_sub: claims.sub, updated_at: ctx.now() }).where(eq(schema.users.id, byEmail.id));
    return byEmail.id;
  }
  const id = crypto.randomUUID();
  const now = ctx.now();
  await ctx.db.insert(schema.users).values({
    id,
    email: claims.email,
    password_hash: null,
    data_policy_region: 'INTL-General',
    legal_jurisdiction: null,
    google_sub: claims.sub,
    created_at: now,
    updated_at: now,
  });
  return id;
}
