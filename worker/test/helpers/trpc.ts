import { schema } from '@afterword/db';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import type { ServiceContext } from '../../src/env';
import { createServiceContext } from '../../src/wiring/service-context';
import { createCallerFactory } from '../../src/trpc/init';
import { appRouter } from '../../src/wiring/trpc-router';

export const createCaller = createCallerFactory(appRouter);

/**
 * A tRPC caller as the web app's signed-in session of `userId` (its user row read through drizzle), or
 * anonymous with null: the procedures run exactly as behind /api/trpc.
 */
export async function callerAs(userId: string | null, opts: { services?: ServiceContext; resHeaders?: Headers } = {}) {
  const services = opts.services ?? createServiceContext(env);
  const user = userId ? (await services.db.select().from(schema.users).where(eq(schema.users.id, userId)).limit(1))[0] : undefined;
  if (userId && !user) throw new Error(`no user ${userId}`);
  return createCaller({
    services,
    principal: user ? { user, via: 'session', sessionId: 'test', scopes: '*' } : null,
    clientAddress: '192.0.2.1',
    requestId: 'test',
    resHeaders: opts.resHeaders ?? new Headers(),
  });
}
