import type { Context } from 'hono';
import { AppError, bodyFieldError } from './errors';
import { capBody } from './json-body';

/**
 * Reads a multipart/form-data body with a size cap: 415 for another media type (naming the operation's
 * own fields), 413 past the cap (declared or streamed), 400 when it does not parse as multipart.
 */
export async function readMultipart(c: Context, maxBytes: number, fields: { required: string[]; optional: string[] }): Promise<FormData> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type.trim())) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the upload as multipart/form-data with ${describeFields(fields)}`);
  }
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The upload is larger than ${maxBytes} bytes`);
  await capBody(c, maxBytes, tooLarge);
  try {
    return await c.req.raw.formData();
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed multipart body: it could not be read as multipart/form-data (check the boundary)');
  }
}

/** A text field of the form: absent → undefined; a file part where text belongs → 422. */
export function textField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== 'string')
    throw new AppError('UNPROCESSABLE', [{ loc: ['body', name], msg: `${name} must be a text field, not a file`, type: 'string_type' }]);
  return value;
}

/**
 * The one `file` part of an upload, read into memory (the body was capped by readMultipart): 422 when it
 * is missing, a text field, or sent more than once (`tooMany` says what one file is for; `what` names the
 * bytes expected).
 */
export async function singleFilePart(form: FormData, tooMany: string, what = 'the encrypted bytes'): Promise<{ bytes: Uint8Array; fileName: string }> {
  const part = await optionalFilePart(form, 'file', what, tooMany);
  if (!part) throw bodyFieldError('file', `file is required (${what})`, 'missing');
  return part;
}

/** The one `name` part of the form as a file, or null when absent: 422 when it is a text field or sent more than once. */
export async function optionalFilePart(form: FormData, name: string, what: string, tooMany: string): Promise<{ bytes: Uint8Array; fileName: string } | null> {
  const files = form.getAll(name);
  const file = files[0];
  if (file === undefined) return null;
  if (typeof file === 'string') throw bodyFieldError(name, `${name} must be a file part (${what}), not a text field`, 'file_type');
  if (files.length > 1) throw bodyFieldError(name, tooMany, 'too_many');
  return { bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name };
}

/** "the fields file, message_id and iv, and (optionally) name". */
function describeFields({ required, optional }: { required: string[]; optional: string[] }): string {
  const list = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);
  const parts = [
    required.length ? `the field${required.length === 1 ? '' : 's'} ${list(required)}` : '',
    optional.length ? `(optionally) ${list(optional)}` : '',
  ];
  return parts.filter(Boolean).join(', and ') || 'its fields';
}

/** The fields a multipart schema (a zod object) declares, required first. */
export function multipartFields(schema: { shape?: Record<string, { safeParse: (v: unknown) => { success: boolean } }> }): {
  required: string[];
  optional: string[];
} {
  const shape = schema.shape ?? {};
  const names = Object.keys(shape);
  // A field that accepts "absent" is optional.
  const optional = names.filter((n) => shape[n]!.safeParse(undefined).success);
  return { required: names.filter((n) => !optional.includes(n)), optional };
}
