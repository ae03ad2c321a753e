import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/wiring/operations';
import { ROUTE_DOCS } from '../src/openapi/routes';
import { api, signedInUser } from './helpers/api';

/**
 * Every documented path answers a method it does not have with 405 and `Allow`, and OPTIONS with 204 and
 * the same `Allow` — not the 404 of a path that does not exist (src/wiring/method-not-allowed.ts).
 */
const ID = '00000000-0000-4000-8000-000000000000';
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, ID);
/** The ping's plain route answers every other method itself (405, Allow: POST; domains/canary/rest.ts). */
const OWN_405 = new Set(['/api/ping/{token}']);

const byPath = new Map<string, Set<string>>();
for (const d of ROUTE_DOCS) {
  const methods = byPath.get(d.path) ?? new Set<string>();
  methods.add(d.method.toUpperCase());
  byPath.set(d.path, methods);
}
const paths = [...byPath.keys()].filter((p) => !OWN_405.has(p));

describe('methods a path does not have', () => {
  it.each(paths)('%s: 405 with Allow for another method, 204 with Allow for OPTIONS', async (path) => {
    // Paths that share a shape (/api/message/{id} and /api/message/list) answer together: the Allow is theirs.
    const shapes = [...byPath.entries()].filter(([p]) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(concrete(path)));
    const declared = new Set(shapes.flatMap(([, m]) => [...m]));
    if (declared.has('GET')) declared.add('HEAD');
    const allow = [...[...declared].sort(), 'OPTIONS'].join(', ');
    const other = ['PATCH', 'PUT', 'DELETE', 'POST', 'GET'].find((m) => !declared.has(m));
    expect(other, `${path} declares every method this walk tries`).toBeDefined();
    const res = await api(other!, concrete(path), other === 'GET' ? {} : { json: {} });
    expect(res.status, `${other} ${path}`).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.data.detail).toContain(`${other} is not allowed on`);
    const options = await api('OPTIONS', concrete(path));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe(allow);
  });

  it('an unknown path stays a 404', async () => {
    expect((await api('PATCH', '/api/no-such-thing', { json: {} })).status).toBe(404);
    expect((await api('OPTIONS', '/api/no-such-thing')).status).toBe(404);
  });
});

describe('a multipart operation sent JSON', () => {
  const multipart = OPERATIONS.filter((op) => op.path && op.input.multipart);
  it.each(multipart.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s: 415 naming its own fields', async (_, op) => {
    const owner = await signedInUser();
    const shape = (op.input.multipart!.schema as unknown as { shape: Record<string, unknown> }).shape;
    const res = await api(op.method.toUpperCase(), op.path!.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'), {
      token: owner.token,
      json: {},
    });
    // The media type is refused before the body is read or any object looked up.
    expect(res.status).toBe(415);
    for (const field of Object.keys(shape)) expect(res.data.detail, field).toContain(field);
  });
});
