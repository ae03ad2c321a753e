import { createMiddleware } from 'hono/factory';
import { TRPC_MAX_BATCH } from '../contracts/transport';
import { AppError } from '../lib/errors';
import { isJsonContentType, NOT_JSON } from '../lib/json-body';
import type { AppEnv } from './context';

/**
 * Checks before tRPC sees a request, answered as `{detail}` like every other /api error:
 * - a batch of more than TRPC_MAX_BATCH procedures is refused before any of them runs;
 * - a body declared as something other than JSON is 415 (tRPC's own 415 is labelled text/plain).
 */
export const trpcGuards = createMiddleware<AppEnv>(async (c, next) => {
  const procedures = c.req.path.slice('/api/trpc/'.length);
  const count = procedures === '' ? 0 : procedures.split(',').length;
  if (count > TRPC_MAX_BATCH) {
    throw new AppError('BAD_REQUEST', `A tRPC batch may hold at most ${TRPC_MAX_BATCH} calls; this one has ${count}`);
  }
  const type = c.req.header('content-type');
  if (c.req.method === 'POST' && type && !isJsonContentType(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_JSON);
  await next();
});
