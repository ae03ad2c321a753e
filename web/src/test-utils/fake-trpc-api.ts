import { vi } from 'vitest';

/** What one procedure answers: data, or an error the way the worker's errorFormatter shapes it. */
export type FakeAnswer = { data: unknown } | { error: { status: number; detail: unknown } };
export type FakeProcedure = (input: unknown) => FakeAnswer;

/**
 * A stand-in for /api/trpc behind `fetch`: answers batched queries (GET, input in the query string) and
 * mutations (POST, input in the body) procedure by procedure and records each call as [path, input].
 * A procedure it does not know answers 404, so a page shows its error state.
 */
export function fakeTrpcApi(procedures: Record<string, FakeProcedure>) {
  const calls: [string, unknown][] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const u = new URL(String(url), 'http://app.test');
    const paths = u.pathname.replace(/^\/api\/trpc\//, '').split(',');
    const body = typeof init?.body === 'string' ? init.body : null;
    const inputs = JSON.parse(body ?? u.searchParams.get('input') ?? '{}') as Record<string, unknown>;
    const answers = paths.map((path, i) => {
      calls.push([path, inputs[i]]);
      const answer = procedures[path]?.(inputs[i]) ?? { error: { status: 404, detail: `No fake for ${path}` } };
      return 'data' in answer
        ? { result: { data: answer.data } }
        : { error: { message: 'x', code: -32004, data: { code: 'X', httpStatus: answer.error.status, detail: answer.error.detail } } };
    });
    const failed = answers.some((a) => 'error' in a);
    return new Response(JSON.stringify(answers), { status: failed ? 207 : 200, headers: { 'content-type': 'application/json' } });
  });
  return { fetch, calls, callsTo: (path: string) => calls.filter(([p]) => p === path).map(([, input]) => input) };
}

export const ok = (data: unknown): FakeAnswer => ({ data });
export const fails = (status: number, detail: unknown): FakeAnswer => ({ error: { status, detail } });
