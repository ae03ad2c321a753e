import { z } from 'zod';

/**
 * The most procedures one tRPC batch request may carry (`/api/trpc/a,b,c?batch=1`). Unbounded batches
 * let one request run hundreds of procedures (30 password checks in one login batch); the web app's
 * httpBatchLink splits its batches at this size (web/src/lib/trpc.ts).
 */
export const TRPC_MAX_BATCH = 10;

/** The answer of an action that has nothing to report but its success. */
export const ZOk = z.object({ ok: z.literal(true) });
