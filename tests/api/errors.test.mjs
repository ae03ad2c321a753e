// The error contract (docs/decisions/api-errors.md), seen from outside: 400 malformed, 413 too large, 422 field
// errors, 415 wrong media type, 401 bad credentials; every body is JSON {detail} without a stack trace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { api, uniqueEmail, PASSWORD } from '../support/http.mjs';

const noStack = (res) => assert.ok(!/\bat\s+\S+\s+\(|\.ts:\d+|node_modules|Error:\s/.test(res.text), `stack-like text in body: ${res.text}`);

test('malformed JSON → 400 {detail}', async () => {
  for (const path of ['/api/auth/register', '/api/auth/login']) {
    const res = await api('POST', path, { raw: '{"email": "a@b.c",', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400, path);
    assert.equal(typeof res.json.detail, 'string');
    noStack(res);
  }
});

test('a JSON body over 1 MiB → 413 {detail}', async () => {
  const big = JSON.stringify({
    email: uniqueEmail(),
    password: PASSWORD,
    data_policy_region: 'INTL-General',
    legal_jurisdiction: 'x'.repeat(1024 * 1024 + 10),
  });
  const res = await api('POST', '/api/auth/register', { raw: big, headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 413);
  assert.equal(typeof res.json.detail, 'string');
});

test('a JSON body exactly under 1 MiB is parsed (then refused on its fields, not its size)', async () => {
  const body = { email: uniqueEmail(), password: PASSWORD, data_policy_region: 'INTL-General', legal_jurisdiction: '' };
  const pad = 1024 * 1024 - JSON.stringify(body).length - 10;
  body.legal_jurisdiction = 'x'.repeat(pad);
  const res = await api('POST', '/api/auth/register', { body });
  assert.equal(res.status, 422, res.text.slice(0, 200));
});

test('wrong types and missing fields → 422 with [{loc,msg,type}]', async () => {
  const res = await api('POST', '/api/auth/register', { body: { email: 42 } });
  assert.equal(res.status, 422);
  assert.ok(Array.isArray(res.json.detail) && res.json.detail.length >= 2, res.text);
  for (const item of res.json.detail) {
    assert.ok(Array.isArray(item.loc), 'loc is an array');
    assert.equal(typeof item.msg, 'string');
    assert.equal(typeof item.type, 'string');
  }
  const locs = res.json.detail.map((d) => d.loc.join('.'));
  assert.ok(
    locs.some((l) => l.includes('email')),
    locs.join(', '),
  );
  assert.ok(
    locs.some((l) => l.includes('password')),
    locs.join(', '),
  );
});

test('region rules are enforced on the server', async () => {
  const cases = [
    [{ data_policy_region: 'US-HIPAA' }, 422],
    [{ data_policy_region: 'US-HIPAA', legal_jurisdiction: 'ZZ' }, 422],
    [{ data_policy_region: 'US-HIPAA', legal_jurisdiction: 'CA' }, 201],
    [{ data_policy_region: 'EU-GDPR', legal_jurisdiction: 'Ontario' }, 422],
    [{ data_policy_region: 'EU-GDPR', legal_jurisdiction: 'Germany' }, 201],
    [{ data_policy_region: 'INTL-General', legal_jurisdiction: 'x'.repeat(101) }, 422],
    [{ data_policy_region: 'INTL-General' }, 201],
    [{ data_policy_region: 'MARS-Colony' }, 422],
  ];
  for (const [fields, status] of cases) {
    const res = await api('POST', '/api/auth/register', { body: { email: uniqueEmail('region'), password: PASSWORD, ...fields } });
    assert.equal(res.status, status, `${JSON.stringify(fields)} → ${res.status} ${res.text}`);
  }
});

test('a declared non-JSON content type → 415', async () => {
  const res = await api('POST', '/api/auth/login', { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(res.status, 415);
  assert.equal(typeof res.json.detail, 'string');
});

test('a forged bearer token → 401 {detail}', async () => {
  const res = await api('GET', '/api/auth/me', { token: 'forged-token-value-0123456789' });
  assert.equal(res.status, 401);
  assert.equal(typeof res.json.detail, 'string');
  noStack(res);
});

test('a chunked JSON body (no Content-Length) over 1 MiB → 413', async () => {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  const body = new ReadableStream({
    pull(c) {
      if (sent >= 20) return c.close();
      sent++;
      c.enqueue(chunk);
    },
  });
  const res = await fetch(new URL('/api/auth/login', process.env.AFTERWORD_ORIGIN), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  });
  assert.equal(res.status, 413);
  assert.equal(typeof (await res.json()).detail, 'string');
});

test('array and null JSON bodies → 422, not 500', async () => {
  for (const raw of ['[]', 'null', '"text"', '42']) {
    const res = await api('POST', '/api/auth/register', { raw, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 422, `${raw} → ${res.status} ${res.text}`);
    assert.ok(Array.isArray(res.json.detail));
  }
});

// docs/decisions/api-errors.md: "JSON bodies over 1 MiB → 413", on the tRPC adapter too.
test('tRPC: a JSON body over 1 MiB → 413', async () => {
  const raw = JSON.stringify({ email: uniqueEmail('trpc-big'), password: PASSWORD, data_policy_region: 'INTL-General', pad: 'x'.repeat(2 * 1024 * 1024) });
  const res = await api('POST', '/api/trpc/auth.register', { raw, headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 413, `${res.status} ${res.text.slice(0, 200)}`);
});

// docs/decisions/api-errors.md: wrong types / missing fields → 422, on the tRPC adapter too.
test('tRPC: wrong types → 422 like the REST adapter', async () => {
  const res = await api('POST', '/api/trpc/auth.register', { raw: '{"email":5}', headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 422, `${res.status} ${res.text.slice(0, 200)}`);
});

test('GET /api (no trailing slash) is a JSON 404 from the Worker, not the SPA', async () => {
  const res = await api('GET', '/api');
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(res.json.detail, 'No API route for GET /api');
});

test('tRPC errors carry the same {detail} and status as REST (wrong password → 401)', async () => {
  const res = await api('POST', '/api/trpc/auth.login', { body: { email: uniqueEmail('trpc'), password: PASSWORD } });
  assert.equal(res.status, 401);
  assert.equal(res.json.error.data.detail, 'Incorrect email or password');
  noStack(res);
});
