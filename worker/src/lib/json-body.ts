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
export async function readJsonBody(req: Request, maxBytes = MAX_JSON_BYTES): Promise<unknown> {
  const type = req.headers.get('content-type');
  if (type && !isJsonContentType(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_JSON);
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw payloadTooLarge(maxBytes);
  const text = new TextDecoder().decode(await readBodyCapped(req, maxBytes, () => payloadTooLarge(maxBytes)));
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed JSON body');
  }
}

export const payloadTooLarge = (maxBytes = MAX_JSON_BYTES) => new AppError('PAYLOAD_TOO_LARGE', `JSON body is larger than ${maxBytes} bytes`);

/**
 * Reads a request body but stops at the cap, so a body without Content-Length cannot exhaust memory.
 * Past the cap it cancels the stream and throws `tooLarge()`.
 */
export async function readBodyCapped(req: Request, maxBytes: number, tooLarge: () => AppError): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  return all;
}
