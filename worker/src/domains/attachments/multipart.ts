import { AppError } from '../../lib/errors';

/**
 * Reads a multipart/form-data body with a size cap: 415 for another media type, 413 past the cap
 * (declared or streamed), 400 when it does not parse as multipart.
 */
export async function readMultipart(req: Request, maxBytes: number): Promise<FormData> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type.trim())) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the upload as multipart/form-data with the fields file, message_id, iv and (optionally) name');
  }
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The upload is larger than ${maxBytes} bytes`);
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const body = await readCapped(req, maxBytes, tooLarge);
  try {
    return await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed multipart body: it could not be read as multipart/form-data (check the boundary)');
  }
}

async function readCapped(req: Request, maxBytes: number, tooLarge: () => AppError): Promise<Uint8Array> {
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
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

/** A text field of the form: absent → undefined; a file part where text belongs → 422. */
export function textField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== 'string') throw new AppError('UNPROCESSABLE', [{ loc: ['body', name], msg: `${name} must be a text field, not a file`, type: 'string_type' }]);
  return value;
}
