import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError, httpErrorFrom, readApiError } from './api-error';
import { restFetch } from './rest';
import { setToken } from './session';
import { createTrpcClient } from './trpc';

const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A batched tRPC error, as the worker's errorFormatter answers it. */
const trpcError = (httpStatus: number, data: Record<string, unknown>) =>
  json([{ error: { message: 'x', code: -32600, data: { code: 'X', httpStatus, ...data } } }], httpStatus);

/** What the tRPC client really throws for `response`. */
async function trpcFailure(response: Response): Promise<unknown> {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => response),
  );
  return createTrpcClient(() => undefined)
    .message.byId.query({ id: '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a' })
    .catch((e: unknown) => e);
}

describe('readApiError', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("reads a tRPC error: its status and the server's detail", async () => {
    const error = await trpcFailure(trpcError(404, { detail: 'Message not found' }));
    expect(readApiError(error)).toEqual({ status: 404, detail: 'Message not found', fieldIssues: null, requestId: null });
  });

  it('reads a tRPC 422 as field issues rooted below body/query, and their messages as the detail', async () => {
    const detail = [
      { loc: ['query', 'id'], msg: 'Invalid UUID', type: 'invalid_format' },
      { loc: ['body', 'rules', 0, 'trigger_value'], msg: 'Must be a positive number', type: 'too_small' },
    ];
    const error = await trpcFailure(trpcError(422, { detail }));
    expect(readApiError(error)).toEqual({
      status: 422,
      detail: 'Invalid UUID Must be a positive number',
      fieldIssues: [
        { path: ['id'], msg: 'Invalid UUID' },
        { path: ['rules', 0, 'trigger_value'], msg: 'Must be a positive number' },
      ],
      requestId: null,
    });
  });

  it('reads the request id of an unexpected error', async () => {
    const error = await trpcFailure(trpcError(500, { detail: 'Internal error', request_id: 'req-123' }));
    expect(readApiError(error)).toMatchObject({ status: 500, detail: 'Internal error', requestId: 'req-123' });
  });

  it('reads a REST answer: the status and the {detail} body', async () => {
    setToken('tok-rest');
    const fetchMock = vi.fn(async () => json({ detail: 'File is larger than your plan allows' }, 413));
    vi.stubGlobal('fetch', fetchMock);
    const error = await restFetch('/api/upload/encrypted-file', { method: 'POST' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(readApiError(error)).toEqual({ status: 413, detail: 'File is larger than your plan allows', fieldIssues: null, requestId: null });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok-rest');
  });

  it('reads a REST 422 and a REST 500 the same way as tRPC', async () => {
    const invalid = await httpErrorFrom(json({ detail: [{ loc: ['body', 'iv'], msg: 'Invalid IV', type: 'custom' }] }, 422));
    expect(readApiError(invalid)).toEqual({ status: 422, detail: 'Invalid IV', fieldIssues: [{ path: ['iv'], msg: 'Invalid IV' }], requestId: null });
    const internal = await httpErrorFrom(json({ detail: 'Internal error', request_id: 'req-9' }, 500));
    expect(readApiError(internal)).toEqual({ status: 500, detail: 'Internal error', fieldIssues: null, requestId: 'req-9' });
  });

  it('keeps the status of an answer that is not JSON, with no detail', async () => {
    const error = await httpErrorFrom(new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(readApiError(error)).toEqual({ status: 502, detail: null, fieldIssues: null, requestId: null });
    expect(error.message).toBe('HTTP 502');
  });

  it('reads a network failure as no answer at all, over tRPC and REST', async () => {
    const offline = () => Promise.reject(new TypeError('Failed to fetch'));
    const viaTrpc = await (async () => {
      vi.stubGlobal('fetch', vi.fn(offline));
      return createTrpcClient(() => undefined)
        .canary.status.query()
        .catch((e: unknown) => e);
    })();
    const none = { status: null, detail: null, fieldIssues: null, requestId: null };
    expect(readApiError(viaTrpc)).toEqual(none);
    expect(readApiError(await restFetch('/api/health').catch((e: unknown) => e))).toEqual(none);
    expect(readApiError(undefined)).toEqual(none);
  });

  it('ignores a blank detail, so the caller shows its own text', () => {
    expect(readApiError({ data: { httpStatus: 400, detail: '   ' } }).detail).toBeNull();
    expect(readApiError({ data: { httpStatus: 422, detail: [{ loc: ['body'], msg: '' }] } })).toMatchObject({ detail: null, fieldIssues: null });
  });
});

describe('server sentences read with the form labels', () => {
  it('names a field by its label and keeps "(a UUID)" and snake_case out of what people read', () => {
    const error = new HttpError(422, { detail: [{ loc: ['body', 'recipient_user_id'], msg: 'recipient_user_id must be a user id (a UUID)', type: 'x' }] });
    const read = readApiError(error);
    expect(read.fieldIssues).toEqual([{ path: ['recipient_user_id'], msg: 'Recipient User ID must be a whole ID (36 letters, digits and dashes)' }]);
    expect(readApiError(new HttpError(422, { detail: 'deliver_at must be an ISO date or date-time' })).detail).toBe('Deliver at must be a date and time');
  });
});
