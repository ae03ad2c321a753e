import { createMiddleware } from 'hono/factory';
import { TRPC_MAX_BATCH } from '../contracts/transport';
import { AppError } from '../lib/errors';
import type { AppEnv } from './context';

/** Refuses a tRPC batch of more than TRPC_MAX_BATCH procedures before any of them runs. */
export const trpcBatchCap = createMiddleware<AppEnv>(async (c, next) => {
  const procedures = c.req.path.slice('/api/trpc/'.length);
  const count = procedures === '' ? 0 : procedures.split(',').length;
  if (count > TRPC_MAX_BATCH) {
    throw new AppError('BAD_REQUEST', `A tRPC batch may hold at most ${TRPC_MAX_BATCH} calls; this one has ${count}`);
  }
  await next();
});
