import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one error type of the API. Each code maps to exactly one HTTP status (REST) and one tRPC code,
 * so a rule broken in a service reads the same over both transports (docs/decisions/api-errors.md).
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, trpc: 'BAD_REQUEST' },
  UNAUTHORIZED: { status: 401, trpc: 'UNAUTHORIZED' },
  FORBIDDEN: { status: 403, trpc: 'FORBIDDEN' },
  /** Not found, or not yours: never reveal another user's object. */
  NOT_FOUND: { status: 404, trpc: 'NOT_FOUND' },
  METHOD_NOT_ALLOWED: { status: 405, trpc: 'METHOD_NOT_SUPPORTED' },
  CONFLICT: { status: 409, trpc: 'CONFLICT' },
  PAYLOAD_TOO_LARGE: { status: 413, trpc: 'PAYLOAD_TOO_LARGE' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, trpc: 'UNSUPPORTED_MEDIA_TYPE' },
  UNPROCESSABLE: { status: 422, trpc: 'UNPROCESSABLE_CONTENT' },
  TOO_MANY_REQUESTS: { status: 429, trpc: 'TOO_MANY_REQUESTS' },
  NOT_IMPLEMENTED: { status: 501, trpc: 'NOT_IMPLEMENTED' },
  INTERNAL: { status: 500, trpc: 'INTERNAL_SERVER_ERROR' },
} as const satisfies Record<string, { status: ContentfulStatusCode; trpc: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A field-level validation problem, FastAPI-style: `{loc, msg, type}`. */
export interface FieldIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string | FieldIssue[],
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation failed');
    this.name = 'AppError';
  }

  get status() {
    return ERROR_CODES[this.code].status;
  }
}

export const notFound = (what = 'Not found') => new AppError('NOT_FOUND', what);

/** 422 on one field of the request body, FastAPI-style: the issue a form shows under that field. */
export const bodyFieldError = (field: string, msg: string, type: string) => new AppError('UNPROCESSABLE', [{ loc: ['body', field], msg, type }]);

export const UNAUTHENTICATED = 'Not authenticated';

/** 401 for a call that needs credentials and sent none (wiring/authenticate.ts requirePrincipal). */
export const unauthenticated = () => new AppError('UNAUTHORIZED', UNAUTHENTICATED, { 'WWW-Authenticate': 'Bearer' });
