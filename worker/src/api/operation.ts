import type { z } from 'zod';
import type { Bindings, ServiceContext } from '../env';
import type { AppError } from '../lib/errors';
import type { KeyPrincipal, Principal, SessionPrincipal } from '../middleware/context';
import type { ApiScope, HttpMethod, OperationLimit, RequestHeaderDoc, RouteDoc } from '../api/route-doc';

/**
 * Who may call an operation. From this one field come the tRPC procedure's guard, the REST route's
 * guard, the OpenAPI `security`/`x-scope`, and the API-key policy (wiring/api-key-policy.ts reads
 * the RouteDoc made from it):
 * - `public`: anyone; a session, when sent, is still known (`principal` may be null);
 * - `session`: a signed-in person only (API keys get 403);
 * - `session-or-key`: a signed-in person, or an API key holding `scope`;
 * - `key`: an API key holding `scope` only (an executor's system); a session gets 403 with `refusal`.
 *   Documented and policed like `session-or-key` (keys need the scope), refused to sessions here.
 */
export type Access = { kind: 'public' } | { kind: 'session' } | { kind: 'session-or-key'; scope: ApiScope } | { kind: 'key'; scope: ApiScope; refusal: string };

type PrincipalFor<A extends Access> = A extends { kind: 'public' }
  ? Principal | null
  : A extends { kind: 'session' }
    ? SessionPrincipal
    : A extends { kind: 'key' }
      ? KeyPrincipal
      : Principal;

/** What a service call receives besides its input; the same over both transports. */
export interface OperationContext<A extends Access = Access> {
  services: ServiceContext;
  principal: PrincipalFor<A>;
  clientAddress: string;
  requestId: string;
  /** The request's `Range` header (REST only; null over tRPC): media answers part of a file with 206. */
  range: string | null;
  /** A request header (REST only; null over tRPC). Declare each one read in `docs.requestHeaders`. */
  header: (name: string) => string | null;
}

/**
 * Where the input comes from. REST reads each part from its place (path, query string, JSON or
 * multipart body) and validates it with its schema (422 `loc` rooted at `path`/`query`/`body`); tRPC
 * takes the same parts as one object. The service receives `{...params, ...query, ...body}` either way.
 */
export interface OperationInput {
  /** Path parameters. A value that fails its schema is 404 (`notFound`), never 422. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** JSON body (1 MiB unless `maxBytes`). With params or query it must be an object schema. */
  body?: z.ZodType;
  /** multipart/form-data (REST only): reads the form into the input; `schema` documents it. */
  multipart?: { schema: z.ZodType; maxBytes: number; read: (form: FormData) => Promise<Record<string, unknown>> | Record<string, unknown> };
  /** Body cap in bytes (JSON). */
  maxBytes?: number;
}

type Part<T> = T extends z.ZodType ? z.output<T> : unknown;
export type InputOf<I extends OperationInput> = (I['params'] extends z.ZodType ? z.output<I['params']> : unknown) &
  (I['query'] extends z.ZodType ? z.output<I['query']> : unknown) &
  Part<I['body']> &
  (I['multipart'] extends { read: (form: FormData) => infer R } ? Awaited<R> : unknown);

export interface OperationDocs {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Statuses beyond the success one (404, 409, 413 …), described; RouteDoc's shape. */
  responses?: RouteDoc['responses'];
  /** Documentation only: a `public` route that also accepts a session (a check-in). */
  authOptional?: boolean;
  /** The success answer's media type when it is not JSON (a download); a list when it is one of several. */
  contentType?: string | readonly string[];
  /** Documentation only: a reserved route that never succeeds yet (it answers 501): no success answer is documented. */
  reserved?: boolean;
  /** Request headers the operation reads (`OperationContext.header`), documented as header parameters. */
  requestHeaders?: RequestHeaderDoc[];
  /** The limits the operation holds under parallel requests (RouteDoc's `OperationLimit`). */
  limits?: readonly OperationLimit[];
}

export interface Operation<
  A extends Access = Access,
  I extends OperationInput = OperationInput,
  O extends z.ZodType = z.ZodType,
  R = unknown,
  M extends HttpMethod = HttpMethod,
  N extends string | false = string | false,
> {
  method: M;
  /** The REST path with the /api prefix, OpenAPI style (`/api/message/{id}`); null = tRPC only. */
  path: string | null;
  /** The tRPC procedure name inside its domain's router; false = REST only (uploads, downloads). */
  trpc: N;
  /** tRPC kind; default: GET → query, anything else → mutation. */
  trpcKind?: 'query' | 'mutation';
  access: A;
  input: I;
  /** The success answer (documented; checked by the operation walk test). Omit for a raw Response. */
  output?: O;
  /** The success status over REST (default 200). */
  status?: 200 | 201 | 202;
  /** The 404 a malformed path id answers with: the same as the service's "not found or not yours". */
  notFound?: () => AppError;
  /**
   * Whether the operation exists in this deployment (the local outbox: never in production). When it
   * says no, REST answers like an unknown route (404 `No API route for …`) before credentials and
   * input are even looked at; tRPC answers NOT_FOUND the same way, after its guard and input.
   */
  exists?: (env: Bindings) => boolean;
  docs: OperationDocs;
  /** The one service call. A `Response` (a download) is passed through by REST as is. */
  run: (ctx: OperationContext<A>, input: InputOf<I>) => R;
}

/** Declares an operation; the identity function that lets TypeScript infer and check the parts together. */
export function defineOperation<
  A extends Access,
  I extends OperationInput,
  R,
  M extends HttpMethod,
  const N extends string | false,
  O extends z.ZodType = z.ZodType,
>(op: Operation<A, I, O, R, M, N>): Operation<A, I, O, R, M, N> {
  return op;
}

export type AnyOperation = Operation;
