import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from './context';
import { AppError } from '../lib/errors';
import { log, redactUrl } from '../lib/logger';

/** Hono onError: AppError → its status and `{detail}`; anything else → 500 with only a request id. */
export function handleError(err: Error, c: Context<AppEnv>) {
  if (err instanceof AppError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json({ detail: err.detail }, err.status);
  }
  if (err instanceof HTTPException && err.status < 500) {
    return c.json({ detail: err.message || 'Bad request' }, err.status);
  }
  const requestId = c.get('requestId') ?? crypto.randomUUID();
  log.error('unhandled error', {
    request_id: requestId,
    method: c.req.method,
    path: redactUrl(c.req.url),
    error: err.message,
    stack: err.stack,
  });
  return c.json({ detail: 'Internal error', request_id: requestId }, 500);
}

export function handleNotFound(c: Context<AppEnv>) {
  return c.json({ detail: `No API route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404);
}
