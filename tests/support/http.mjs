// Plain-HTTP helpers for the black-box tests: the Worker's origin, account helpers, a cookie jar.
import { randomUUID } from 'node:crypto';
import { responseContract } from './response-contract.mjs';

export function origin() {
  const o = process.env.AFTERWORD_ORIGIN;
  if (!o) throw new Error('AFTERWORD_ORIGIN is not set: run these tests through tests/run-e2e.mjs');
  return o;
}

export const url = (path) => new URL(path, origin()).toString();

export const uniqueEmail = (tag = 'user') => `${tag}.${randomUUID().slice(0, 12)}@example.test`;
export const PASSWORD = 'Correct-Horse-Battery-42';

/** The served document's check, fetched once per test process (tests/support/response-contract.mjs). */
let contract;
async function checkAgainstDocument(method, path, res, text) {
  const pathname = new URL(path, origin()).pathname;
  if (!pathname.startsWith('/api/') || pathname.startsWith('/api/trpc')) return;
  contract ??= fetch(url('/api/openapi.json')).then(async (r) => responseContract(await r.json()));
  const problems = (await contract)({ method, path, status: res.status, contentType: res.headers.get('content-type'), text });
  if (problems.length) throw new Error(`The response breaks /api/openapi.json:\n${problems.join('\n')}`);
}

/** One request; every answer of a documented operation is checked against what the document declares. */
export async function api(method, path, { body, token, headers = {}, raw } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  let payload = raw;
  if (body !== undefined) {
    h['content-type'] ??= 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(url(path), { method, headers: h, body: payload, redirect: 'manual' });
  // The bytes as sent (a download's ciphertext), and their UTF-8 reading for JSON and messages.
  const buf = Buffer.from(await res.arrayBuffer());
  const text = buf.toString('utf8');
  await checkAgainstDocument(method, path, res, text);
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, buf };
}

export async function register(overrides = {}) {
  const input = { email: uniqueEmail(), password: PASSWORD, data_policy_region: 'INTL-General', ...overrides };
  const res = await api('POST', '/api/auth/register', { body: input });
  if (res.status !== 201) throw new Error(`register ${res.status}: ${res.text}`);
  return { ...input, user: res.json };
}

export async function login(email, password = PASSWORD) {
  const res = await api('POST', '/api/auth/login', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login ${res.status}: ${res.text}`);
  return res.json.access_token;
}

/** A minimal cookie jar: name=value per (name, path), sent when the request path is under the path. */
export class CookieJar {
  cookies = new Map();
  store(res, requestUrl) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attr = Object.fromEntries(
        attrs.map((a) => {
          const i = a.indexOf('=');
          return i < 0 ? [a.toLowerCase(), true] : [a.slice(0, i).toLowerCase(), a.slice(i + 1)];
        }),
      );
      const path = typeof attr.path === 'string' ? attr.path : new URL(requestUrl).pathname.replace(/\/[^/]*$/, '') || '/';
      const key = `${name};${path}`;
      const expired = attr['max-age'] !== undefined ? Number(attr['max-age']) <= 0 : attr.expires ? Date.parse(attr.expires) <= Date.now() : false;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { name, value, path, attr });
    }
  }
  header(requestUrl) {
    const p = new URL(requestUrl).pathname;
    const list = [...this.cookies.values()].filter((c) => p === c.path || p.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`));
    return list.map((c) => `${c.name}=${c.value}`).join('; ');
  }
  get(name) {
    return [...this.cookies.values()].find((c) => c.name === name);
  }
  /** GET with this jar, not following redirects. */
  async fetch(target, init = {}) {
    const cookie = this.header(target);
    const res = await fetch(target, { ...init, redirect: 'manual', headers: { ...(init.headers ?? {}), ...(cookie ? { cookie } : {}) } });
    this.store(res, target);
    return res;
  }
}
