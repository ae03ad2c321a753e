import { trpcServer } from '@hono/trpc-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_JSON_BYTES, payloadTooLarge } from './lib/json-body';
import { googleSignInRoutes } from './domains/auth/rest';
import { pingRoutes } from './domains/canary/rest';
import { billingWebhookRoutes } from './domains/billing/rest';
import { MESSAGE_CREATE_MAX_BODY_BYTES } from './contracts/messages';
import { AppError } from './lib/errors';
import { log } from './lib/logger';
import { authenticate } from './wiring/authenticate';
import type { AppEnv } from './middleware/context';
import { handleError, handleNotFound } from './middleware/errors';
import { methodNotAllowed } from './wiring/method-not-allowed';
import { referenceRoutes } from './openapi/rest';
import { requestContext } from './middleware/request-context';
import { securityHeaders } from './middleware/security-headers';
import { trpcGuards } from './middleware/trpc-guards';
import { appRouter } from './wiring/trpc-router';
import { mountOperations } from './api/rest-adapter';
import { OPERATIONS } from './wiring/operations';
import { crawlerFiles } from './site/crawler-files';
import { landingPage } from './site/landing';

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use('*', securityHeaders, requestContext, authenticate);

  app.get('/api/health', (c) => c.json({ status: 'ok' }));
  // /robots.txt and /sitemap.xml name this deployment's origin (site/crawler-files.ts).
  app.route('/', crawlerFiles);
  // GET / : the prerendered landing page (site/landing.ts).
  app.route('/', landingPage);
  // GET /api/openapi.json (generated from ROUTE_DOCS) and GET /api/docs (the Scalar reference).
  app.route('/api', referenceRoutes);
  app.route('/api/auth', googleSignInRoutes);
  // POST /api/billing/webhook: the raw body, for its signature (domains/billing/rest.ts).
  app.route('/api/billing', billingWebhookRoutes);
  // Every operation declared once in its domain (worker/src/wiring/operations.ts).
  mountOperations(app, OPERATIONS);
  // Any method but POST on /api/ping/{token} (405): after the operations, so the POST check-in wins.
  app.route('/api/ping', pingRoutes);

  // The same caps as the REST adapter's readJsonBody, declared or streamed: 1 MiB, except a lone
  // message.create (it carries its audio inline).
  const trpcLimit = bodyLimit({
    maxSize: MAX_JSON_BYTES,
    onError: () => {
      throw payloadTooLarge();
    },
  });
  const messageCreateLimit = bodyLimit({
    maxSize: MESSAGE_CREATE_MAX_BODY_BYTES,
    onError: () => {
      throw payloadTooLarge(MESSAGE_CREATE_MAX_BODY_BYTES);
    },
  });
  app.use('/api/trpc/*', trpcGuards);
  app.use('/api/trpc/*', (c, next) => (c.req.path === '/api/trpc/message.create' ? messageCreateLimit(c, next) : trpcLimit(c, next)));
  app.use(
    '/api/trpc/*',
    trpcServer({
      endpoint: '/api/trpc',
      router: appRouter,
      createContext: (opts, c) => ({
        services: c.get('services'),
        principal: c.get('principal'),
        clientAddress: c.get('clientAddress'),
        requestId: c.get('requestId'),
        resHeaders: opts.resHeaders,
      }),
      // The same log line as REST's (middleware/errors.ts): the request id the client got, never in the answer's body.
      onError: ({ error, path, ctx }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError)) {
          log.error('trpc internal error', { request_id: ctx?.requestId, path, error: error.message, stack: error.stack });
        }
      },
    }),
  );

  // A known path with another method: 405 with Allow (and OPTIONS lists them); else 404.
  app.notFound((c) => methodNotAllowed(c) ?? handleNotFound(c));
  app.onError(handleError);
  return app;
}
