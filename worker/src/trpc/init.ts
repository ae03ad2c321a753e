import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { ServiceContext } from '../env';
import { requirePrincipal } from '../middleware/require-principal';
import type { Principal } from '../middleware/context';
import { AppError, ERROR_CODES } from '../lib/errors';
import { toFieldIssues } from '../lib/validation';

export interface TrpcContext {
  services: ServiceContext;
  principal: Principal | null;
  clientAddress: string;
  requestId: string;
  /** Response headers a procedure wants set (e.g. Retry-After). */
  resHeaders: Headers;
}

const t = initTRPC.context<TrpcContext>().create({
  /**
   * Every error carries the same `detail` the REST adapter would answer with: validation issues rooted
   * where REST roots them (a query's input at `query`, a mutation's at `body`), and an unexpected
   * error only as "Internal error" with the request id its log line carries (app.ts logs it).
   */
  errorFormatter({ shape, error, type, ctx }) {
    const cause = error.cause;
    const internal = error.code === 'INTERNAL_SERVER_ERROR' && !(cause instanceof AppError);
    let detail: unknown = internal ? 'Internal error' : error.message;
    if (cause instanceof AppError) detail = cause.detail;
    else if (cause instanceof ZodError) detail = toFieldIssues(cause, type === 'query' ? 'query' : 'body');
    const requestId = internal ? ctx?.requestId : undefined;
    return {
      ...shape,
      message: typeof detail === 'string' ? detail : 'Validation failed',
      data: { ...shape.data, stack: undefined, detail, ...(requestId ? { request_id: requestId } : {}) },
    };
  },
});

/**
 * Turns a service's AppError into the matching tRPC error (same code map as REST), and input that
 * fails its contract into 422 like the REST adapter (tRPC's own default would be 400).
 */
const appErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'BAD_REQUEST' && result.error.cause instanceof ZodError) {
    throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: 'Validation failed', cause: result.error.cause });
  }
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    for (const [k, v] of Object.entries(cause.headers)) ctx.resHeaders.set(k, v);
    throw new TRPCError({ code: ERROR_CODES[cause.code].trpc, message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(appErrors);
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { ...ctx, principal: requirePrincipal(ctx.principal) } }));
