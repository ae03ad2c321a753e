import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from './errors';

/**
 * docs/decisions/api-errors.md: JSON bodies over 1 MiB are refused with 413 before they are parsed (message
 * create, which carries audio, allows more).
 */
export const MAX_JSON_BYTES = 1024 * 1024;

export const NOT_JSON = 'Send the body as JSON (Content-Type: application/json)';

/** application/json or any application/…+json. */
export const isJsonContentType = (type: string) => /^application\/([\w.+-]+\+)?json\b/i.test(type.trim());

/**
 * Reads a JSON request body: 415 for a declared non-JSON type, 413 past 1 MiB (declared or actual),
 * 400 for malformed JSON. An empty body reads as `{}` so "all fields missing" becomes a 422.
 */
export async function readJsonBody(c: Context, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = c.req.header('content-type');
  if (type && !isJsonContentType(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_JSON);
  await capBody(c, maxBytes, () => payloadTooLarge(maxBytes));
  const text = await c.req.raw.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed JSON body');
  }
}

export const payloadTooLarge = (maxBytes = MAX_JSON_BYTES) => new AppError('PAYLOAD_TOO_LARGE', `JSON body is larger than ${maxBytes} bytes`);

/**
 * hono/body-limit run in place (after the caller's own 415 check, so the order of answers stays): a
 * declared Content-Length past the cap throws `tooLarge()` unread; a body without one is read up to
 * the cap and no further, and `c.req.raw` is left readable (its buffered copy).
 */
export async function capBody(c: Context, maxBytes: number, tooLarge: () => AppError): Promise<void> {
  await bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge();
    },
  })(c, async () => {});
}
