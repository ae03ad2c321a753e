import type { z } from 'zod';
import { API_SCOPES, type ApiScope } from '../contracts/developer';

/** The key scopes are a contract (contracts/developer.ts): the web app's Developer page offers them too. */
export { API_SCOPES, type ApiScope };

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One REST route as the product documents and guards it: the single source of truth for the OpenAPI
 * document (worker/src/openapi/document.ts) AND for what an API key may call (the key policy reads
 * `auth` and `scope`). A contract test checks that these entries and the routes the Worker serves are
 * the same set.
 */
/** A request header a route reads. */
export interface RequestHeaderDoc {
  name: string;
  description: string;
  required?: boolean;
}

/**
 * A limit an operation holds however its requests interleave (the limit is part of the write:
 * worker/src/lib/limited-insert.ts, or one atomic counter). Declared on the operation, printed in the
 * document (`x-limits` and a sentence), and fired at in parallel by worker/test/parallel-limits.test.ts,
 * which fails for a declared limit it has no way to fire.
 */
export interface OperationLimit {
  /** What is counted, as a person reads it: "active API keys". */
  what: string;
  /** The most there may be; `plan` when the caller's plan decides (worker/src/contracts/plans.ts). */
  max: number | 'plan';
  /** Over which span: for as long as they exist, or in a sliding window. */
  per: 'account' | 'file' | '24 hours' | 'hour' | '10 minutes';
  /** The status a refused request answers. */
  refusal: 403 | 409 | 429;
}

export interface RouteDoc {
  method: HttpMethod;
  /** OpenAPI style, with the /api prefix: `/api/message/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /**
   * `none`: public. `session`: a signed-in person only (API keys get 403). `session-or-key`: also an API
   * key holding `scope`.
   */
  auth: 'none' | 'session' | 'session-or-key';
  scope?: ApiScope;
  /**
   * Documentation only: a `session` route that also answers without any credentials (a check-in that
   * carries its canary token). The document marks the bearer optional; the key policy still reads `auth`.
   */
  authOptional?: boolean;
  request?: {
    /** The path parameters as one object (`{id: z.uuid()}`); without it each `{name}` is a plain string. */
    params?: z.ZodType;
    body?: z.ZodType;
    /** Default application/json. */
    contentType?: 'application/json' | 'multipart/form-data';
    query?: z.ZodType;
    /** Request headers the route reads (documented as `in: header` parameters). */
    headers?: RequestHeaderDoc[];
  };
  /** Status → description (and a schema when one exists as zod). */
  /** Limits held under parallel requests. */
  limits?: readonly OperationLimit[];
  /** A `contentType` list: the body is one of these (a capsule's media is audio or video). */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string | readonly string[] }>;
}
