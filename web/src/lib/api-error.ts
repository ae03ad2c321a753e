/*
 * The one place the web app reads a failed call. Both transports answer errors the same way
 * (worker/src/trpc/init.ts, worker/src/middleware/errors.ts): an HTTP status, a `detail` that is a
 * sentence or a list of validation issues (`[{ loc, msg, type }]`), and on a 500 the `request_id`
 * under which the server logged it. tRPC carries them in `error.data`; a REST call made with `fetch`
 * throws an `HttpError` holding the JSON body. Anything else (a network failure, a bug) has none.
 */

/** One validation problem from the server, with the root of its `loc` ('input', 'body', …) dropped. */
export interface FieldIssue {
  path: (string | number)[];
  msg: string;
}

export interface ApiError {
  /** The HTTP status the server answered with; null when no answer came (offline, aborted) or it is not an API error. */
  status: number | null;
  /** The server's words: its `detail` sentence, or the issues' messages joined. Null when there are none. */
  detail: string | null;
  /** The issues of a validation failure (422), each placed by its path; null for a plain detail or none. */
  fieldIssues: FieldIssue[] | null;
  /** The id the server logged an unexpected error under (500s only). */
  requestId: string | null;
}

/** A REST call that was answered with a non-2xx status; `body` is its JSON (or null when it was not JSON). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown = null,
  ) {
    super(readDetail((body as { detail?: unknown } | null)?.detail) ?? `HTTP ${status}`);
    this.name = 'HttpError';
  }
}

/** The HttpError for a response that was not ok, with its JSON body when it has one. */
export async function httpErrorFrom(res: Response): Promise<HttpError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not JSON (a proxy's page, an empty body): the status alone says what happened
  }
  return new HttpError(res.status, body);
}

import { forPeople } from './field-labels';

const ROOTS = new Set(['input', 'body', 'query', 'path']);

function readFieldIssues(detail: unknown): FieldIssue[] | null {
  if (!Array.isArray(detail)) return null;
  const issues: FieldIssue[] = [];
  for (const raw of detail) {
    const { loc, msg } = (raw ?? {}) as { loc?: unknown; msg?: unknown };
    if (typeof msg !== 'string' || !msg) continue;
    const path = Array.isArray(loc) ? loc.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number') : [];
    if (typeof path[0] === 'string' && ROOTS.has(path[0])) path.shift();
    issues.push({ path, msg: forPeople(msg) });
  }
  return issues.length ? issues : null;
}

function readDetail(detail: unknown): string | null {
  if (typeof detail === 'string') return detail.trim() ? forPeople(detail) : null;
  const issues = readFieldIssues(detail);
  return issues ? issues.map((i) => i.msg).join(' ') : null;
}

/** Where the server's error fields sit on `error`: tRPC's `data` (or its `shape.data`), or a REST body. */
function payloadOf(error: unknown): { status: unknown; body: Record<string, unknown> | null } {
  if (error instanceof HttpError) {
    const body = error.body && typeof error.body === 'object' ? (error.body as Record<string, unknown>) : null;
    return { status: error.status, body };
  }
  const e = error as { data?: unknown; shape?: { data?: unknown } } | null;
  const data = e?.data ?? e?.shape?.data;
  if (!data || typeof data !== 'object') return { status: null, body: null };
  const body = data as Record<string, unknown>;
  return { status: body.httpStatus, body };
}

/**
 * Reads any failed call (tRPC, REST, network) into one shape. Callers show `detail` when there is one
 * and their own text from docs/product.md otherwise; forms place `fieldIssues` under their fields.
 */
export function readApiError(error: unknown): ApiError {
  const { status, body } = payloadOf(error);
  const requestId = body?.request_id;
  return {
    status: typeof status === 'number' ? status : null,
    detail: readDetail(body?.detail),
    fieldIssues: readFieldIssues(body?.detail),
    requestId: typeof requestId === 'string' && requestId ? requestId : null,
  };
}
