// A real OAuth 2.0 / OpenID Connect provider on 127.0.0.1 standing in for Google (node:http only):
//   GET  /authorize  validates client_id, redirect_uri, response_type=code, scope, state and the PKCE S256
//                    challenge, then auto-consents: 302 to redirect_uri?code=…&state=…
//   POST /token      form-encoded authorization_code grant, client authenticated by HTTP Basic (or
//                    client_secret_post), code_verifier checked against the stored challenge, one-time codes;
//                    answers { access_token, id_token, token_type, expires_in, scope }
//   GET  /jwks       the RSA signing key as a JWK set (kid, alg RS256)
// The id_token is RS256-signed with iss = this server's origin. Which identity the next sign-in gets
// (sub, email, email_verified) is set per test, in process (queueIdentity) or over HTTP
// (POST /_control/identities), because the tests run in a child process of the one that owns this server.
import { createHash, createSign, generateKeyPairSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

export async function startFakeGoogle({
  clientId = `fake-client-${randomUUID()}.apps.test`,
  clientSecret = randomBytes(16).toString('hex'),
  redirectUris = [],
} = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `test-${randomBytes(6).toString('hex')}`;
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const allowedRedirects = new Set(redirectUris);
  const codes = new Map(); // code -> { challenge, redirectUri, identity, expiresAt }
  const queue = [];
  let defaultIdentity = { sub: '100000000000000000001', email: 'google.user@example.com', email_verified: true };
  const log = [];

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const body = await readBody(req);
    log.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), at: Date.now() });
    try {
      if (req.method === 'GET' && url.pathname === '/authorize') return authorize(url, res);
      if (req.method === 'POST' && url.pathname === '/token') return token(req, body, res);
      if (req.method === 'GET' && url.pathname === '/jwks') return json(res, 200, { keys: [jwk] }, { 'Cache-Control': 'public, max-age=60' });
      if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
        return json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          jwks_uri: `${origin}/jwks`,
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
        });
      }
      if (req.method === 'POST' && url.pathname === '/_control/identities') {
        const ids = JSON.parse(body.toString() || '[]');
        for (const id of Array.isArray(ids) ? ids : [ids]) api.queueIdentity(id);
        return json(res, 200, { queued: queue.length });
      }
      if (req.method === 'POST' && url.pathname === '/_control/redirect-uris') {
        api.allowRedirectUri(JSON.parse(body.toString()).uri);
        return json(res, 200, { ok: true });
      }
      if (req.method === 'GET' && url.pathname === '/_control/log') return json(res, 200, log);
      return json(res, 404, { error: 'not_found' });
    } catch (err) {
      return json(res, 500, { error: 'server_error', error_description: String(err?.message ?? err) });
    }
  });

  function authorize(url, res) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    // Per RFC 6749 4.1.2.1: a bad client or redirect_uri is shown to the user, never redirected.
    if (q.get('client_id') !== clientId) return json(res, 400, { error: 'invalid_client', error_description: 'unknown client_id' });
    if (!redirectUri || !allowedRedirects.has(redirectUri))
      return json(res, 400, { error: 'redirect_uri_mismatch', error_description: `redirect_uri not registered: ${redirectUri}` });
    const back = (params) => {
      const to = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) if (v != null) to.searchParams.set(k, v);
      res.writeHead(302, { Location: to.toString() }).end();
    };
    const state = q.get('state');
    if (q.get('response_type') !== 'code') return back({ error: 'unsupported_response_type', state });
    const scopes = (q.get('scope') ?? '').split(' ');
    if (!scopes.includes('openid')) return back({ error: 'invalid_scope', state });
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(q.get('code_challenge') ?? '')) {
      return back({ error: 'invalid_request', error_description: 'PKCE S256 code_challenge required', state });
    }
    if (!state) return back({ error: 'invalid_request', error_description: 'state required' });
    const identity = queue.length ? queue.shift() : defaultIdentity;
    const code = b64url(randomBytes(24));
    codes.set(code, { challenge: q.get('code_challenge'), redirectUri, identity, scope: q.get('scope'), expiresAt: Date.now() + 60_000 });
    return back({ code, state });
  }

  function token(req, body, res) {
    const form = new URLSearchParams(body.toString());
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const auth = req.headers.authorization ?? '';
    if (auth.startsWith('Basic ')) {
      const decoded = Buffer.from(auth.slice(6), 'base64').toString();
      const i = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
    if (id !== clientId || !safeEqual(secret ?? '', clientSecret))
      return json(res, 401, { error: 'invalid_client' }, { 'WWW-Authenticate': 'Basic realm="fake-google"' });
    if (!/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''))
      return json(res, 400, { error: 'invalid_request', error_description: 'form-encoded body required' });
    if (form.get('grant_type') !== 'authorization_code') return json(res, 400, { error: 'unsupported_grant_type' });
    const code = form.get('code');
    const entry = code ? codes.get(code) : undefined;
    if (code) codes.delete(code); // one-time, even when the rest of the request is wrong
    if (!entry || entry.expiresAt < Date.now()) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown, used or expired code' });
    if (form.get('redirect_uri') !== entry.redirectUri) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
    const verifier = form.get('code_verifier') ?? '';
    if (b64url(createHash('sha256').update(verifier).digest()) !== entry.challenge)
      return json(res, 400, { error: 'invalid_grant', error_description: 'code_verifier does not match' });
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: origin, azp: clientId, aud: clientId, iat: now, exp: now + 3600, ...entry.identity };
    return json(res, 200, { access_token: b64url(randomBytes(24)), id_token: signJwt(claims), token_type: 'Bearer', expires_in: 3599, scope: entry.scope });
  }

  function signJwt(claims, { keyId = kid } = {}) {
    const head = b64url(JSON.stringify({ alg: 'RS256', kid: keyId, typ: 'JWT' }));
    const payload = b64url(JSON.stringify(claims));
    const sig = createSign('RSA-SHA256').update(`${head}.${payload}`).sign(privateKey);
    return `${head}.${payload}.${b64url(sig)}`;
  }

  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;

  const api = {
    origin,
    issuer: origin,
    clientId,
    clientSecret,
    kid,
    log,
    /** The next sign-in (one /authorize) gets this identity; missing fields come from the default. */
    queueIdentity(identity) {
      queue.push({ ...defaultIdentity, ...identity });
    },
    setDefaultIdentity(identity) {
      defaultIdentity = { ...defaultIdentity, ...identity };
    },
    allowRedirectUri(uri) {
      allowedRedirects.add(uri);
    },
    signJwt,
    /** The --var values the Worker needs to use this provider. */
    workerVars() {
      return {
        GOOGLE_CLIENT_ID: clientId,
        GOOGLE_CLIENT_SECRET: clientSecret,
        GOOGLE_AUTH_URL: `${origin}/authorize`,
        GOOGLE_TOKEN_URL: `${origin}/token`,
        GOOGLE_JWKS_URL: `${origin}/jwks`,
        GOOGLE_ISSUER: origin,
      };
    },
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
  return api;
}

/** For tests in another process: talks to a running fake provider's control endpoints. */
export function fakeGoogleControl(origin = process.env.FAKE_GOOGLE_ORIGIN) {
  if (!origin) throw new Error('FAKE_GOOGLE_ORIGIN is not set');
  const post = async (path, body) => {
    const res = await fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`fake google ${path}: ${res.status}`);
    return res.json();
  };
  return {
    origin,
    queueIdentity: (identity) => post('/_control/identities', identity),
    log: async () => (await fetch(`${origin}/_control/log`)).json(),
  };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify(body));
}

function safeEqual(a, b) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
