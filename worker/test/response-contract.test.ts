import { describe, expect, it } from 'vitest';
import { responseContract } from '../../tests/support/response-contract.mjs';

/**
 * The check every test's responses go through (worker/test/helpers/api.ts, tests/support/http.mjs): a
 * response of a documented operation must have a declared status, a declared content type and, for JSON,
 * a body of the declared schema. Here on a small document, so each refusal is seen once.
 */
const document = {
  paths: {
    '/api/message/{id}': {
      get: {
        operationId: 'getMessage',
        responses: {
          200: { content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } } } } },
          404: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    },
    '/api/message/pending': { get: { operationId: 'pending', responses: { 200: { content: { 'application/json': { schema: { type: 'array' } } } } } } },
    '/api/message/{id}/audio': { get: { operationId: 'audio', responses: { 200: { content: { 'audio/*': {}, 'application/octet-stream': {} } } } } },
    '/api/message/{id}/read': { post: { operationId: 'markRead', responses: { 204: { description: 'Read' } } } },
  },
  components: { schemas: { Error: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } } } },
};
const check = responseContract(document);
const id = crypto.randomUUID();
const json = (status: number, body: unknown, path = `/api/message/${id}`) =>
  check({ method: 'GET', path, status, contentType: 'application/json; charset=UTF-8', text: JSON.stringify(body) });

describe('checking a response against the document', () => {
  it('accepts a declared status whose body matches its schema, a $ref to the components included', () => {
    expect(json(200, { id })).toEqual([]);
    expect(json(404, { detail: 'Message not found' })).toEqual([]);
  });

  it('refuses a status the operation does not declare, naming the declared ones', () => {
    expect(json(500, { detail: 'boom' })).toEqual([expect.stringMatching(/status 500 is not declared \(declared: 200, 404\)/)]);
  });

  it('refuses a body that does not match the schema, saying where', () => {
    expect(json(200, { id: 'not-a-uuid' })[0]).toMatch(/does not match the declared schema — #\/id/);
    expect(json(404, { message: 'no detail' })[0]).toMatch(/does not match the declared schema/);
    expect(check({ method: 'GET', path: `/api/message/${id}`, status: 200, contentType: 'application/json', text: '<html>' })[0]).toMatch(/not JSON/);
  });

  it('matches a literal path before a template that also fits it', () => {
    expect(json(200, [], '/api/message/pending')).toEqual([]);
    expect(json(200, { id }, '/api/message/pending?limit=1')[0]).toMatch(/pending/);
  });

  it('accepts any of several declared media types, a wildcard among them, and refuses another', () => {
    const audio = (contentType: string) => check({ method: 'GET', path: `/api/message/${id}/audio`, status: 200, contentType, text: 'bytes' });
    expect(audio('audio/webm')).toEqual([]);
    expect(audio('application/octet-stream')).toEqual([]);
    expect(audio('text/html')[0]).toMatch(/answered text\/html, declared audio\/\* or application\/octet-stream/);
  });

  it('refuses a body where the document declares none', () => {
    const read = (text: string) => check({ method: 'POST', path: `/api/message/${id}/read`, status: 204, contentType: null, text });
    expect(read('')).toEqual([]);
    expect(read('{"ok":true}')[0]).toMatch(/declares no body/);
  });

  it('leaves alone what is not an operation: an unknown path, or a method the path does not declare', () => {
    expect(check({ method: 'GET', path: '/api/nothing-here', status: 404, contentType: 'application/json', text: '{}' })).toEqual([]);
    expect(check({ method: 'DELETE', path: `/api/message/${id}`, status: 405, contentType: 'application/json', text: '{}' })).toEqual([]);
  });
});
