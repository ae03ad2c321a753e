import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * An ElevenLabs peer: a node:http server speaking the documented endpoints the `elevenlabs` voice engine uses
 * (elevenlabs.io/docs/api-reference),
 *   POST   /v1/voices/add            multipart/form-data: `name` (required), `files` (one or more, required),
 *                                   `description`, `labels` → {voice_id, requires_verification: false}
 *   POST   /v1/text-to-speech/{id}   JSON {text, model_id?, voice_settings?}, query `output_format`
 *                                   (pcm_16000 | pcm_22050 | pcm_24000 | pcm_44100: raw 16-bit little-endian mono PCM;
 *                                   default mp3_44100_128 is refused here as unsupported by the peer) → audio bytes
 *   DELETE /v1/voices/{id}           → {status: "ok"}
 * authenticated by the `xi-api-key` header (a key must look like `sk_…`: 401 `invalid_api_key` otherwise),
 * answering ElevenLabs' error shapes: `{detail: {status, message}}`, and for a missing field 422
 * `{detail: [{type: "missing", loc: ["body", field], msg: "Field required"}]}`. An unknown voice is 404
 * `voice_not_found`.
 *
 * Speech is deterministic: a 200 Hz tone of 60 ms per character of the text (so longer text, longer audio),
 * at the asked rate — a test knows exactly how many seconds it was given.
 *
 * Tests run in parallel, so state is per API key: a test uses its own key and reads only its own calls.
 * Control endpoints (JSON):
 *   GET  /__calls?key=sk_…          what that key sent: method, path, query, and for voices/add the fields and
 *                                    each file's name, type, size and sha256
 *   GET  /__voices?key=sk_…         the voice ids that key has now
 *   POST /__fail?key=sk_…           {status, message, times}: the next `times` API calls of that key fail with
 *                                    that status and `{detail: {status: "system_busy", message}}`
 */
export interface ElevenLabsPeerInfo {
  baseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    elevenLabsPeer: ElevenLabsPeerInfo;
  }
}

export const PEER_SECONDS_PER_CHARACTER = 0.06;

export interface RecordedElevenLabsCall {
  method: string;
  path: string;
  query: Record<string, string>;
  fields?: Record<string, string>;
  files?: { filename: string; type: string; size: number; sha256: string }[];
  json?: Record<string, unknown>;
}

interface Account {
  calls: RecordedElevenLabsCall[];
  voices: Map<string, { name: string }>;
  failures: { status: number; message: string; times: number } | null;
}

const accounts = new Map<string, Account>();
const accountFor = (key: string) => {
  const a: Account = accounts.get(key) ?? { calls: [], voices: new Map(), failures: null };
  accounts.set(key, a);
  return a;
};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const detail = (res: ServerResponse, status: number, code: string, message: string) => json(res, status, { detail: { status: code, message } });
const missing = (res: ServerResponse, field: string) =>
  json(res, 422, { detail: [{ type: 'missing', loc: ['body', field], msg: 'Field required', input: null }] });

/** `seconds` of a 200 Hz tone as 16-bit little-endian mono PCM at `rate`. */
function tone(seconds: number, rate: number): Buffer {
  const n = Math.round(seconds * rate);
  const out = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i += 1) out.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 200 * i) / rate)), i * 2);
  return out;
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://peer');
  const controlKey = url.searchParams.get('key') ?? '';
  if (url.pathname === '/__calls') return json(res, 200, accountFor(controlKey).calls);
  if (url.pathname === '/__voices') return json(res, 200, [...accountFor(controlKey).voices.keys()]);
  if (url.pathname === '/__fail') {
    const { status, message, times } = JSON.parse((await readBody(req)).toString('utf8')) as { status: number; message: string; times: number };
    accountFor(controlKey).failures = { status, message, times };
    return json(res, 200, { ok: true });
  }

  const key = req.headers['xi-api-key'];
  if (typeof key !== 'string' || !key) {
    return detail(res, 401, 'needs_authorization', 'Neither authorization header nor xi-api-key received, please provide one.');
  }
  if (!/^sk_\w+$/.test(key)) return detail(res, 401, 'invalid_api_key', 'Invalid API key');
  const account = accountFor(key);
  const body = await readBody(req);
  const call: RecordedElevenLabsCall = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams) };
  account.calls.push(call);

  if (account.failures && account.failures.times > 0) {
    account.failures.times -= 1;
    return detail(res, account.failures.status, 'system_busy', account.failures.message);
  }

  if (req.method === 'POST' && url.pathname === '/v1/voices/add') {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) return missing(res, 'name');
    // Node's own multipart parser (undici), as a server framework would use.
    const form = await new Request('http://peer/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
    call.fields = {};
    call.files = [];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') call.fields[name] = value;
      else if (name === 'files') {
        const bytes = Buffer.from(await value.arrayBuffer());
        call.files.push({ filename: value.name, type: value.type, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
      }
    }
    if (!call.fields.name) return missing(res, 'name');
    if (call.files.length === 0) return missing(res, 'files');
    if (call.files.some((f) => f.size === 0)) return detail(res, 400, 'invalid_audio', 'One of the samples is empty.');
    const voiceId = randomBytes(10).toString('base64url');
    account.voices.set(voiceId, { name: call.fields.name });
    return json(res, 200, { voice_id: voiceId, requires_verification: false });
  }

  const tts = /^\/v1\/text-to-speech\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'POST' && tts) {
    const voiceId = decodeURIComponent(tts[1]!);
    let input: { text?: unknown } = {};
    try {
      input = JSON.parse(body.toString('utf8')) as { text?: unknown };
    } catch {
      return missing(res, 'text');
    }
    call.json = input as Record<string, unknown>;
    if (!account.voices.has(voiceId)) return detail(res, 404, 'voice_not_found', `A voice with voice_id ${voiceId} was not found.`);
    if (typeof input.text !== 'string' || !input.text) return missing(res, 'text');
    const format = url.searchParams.get('output_format') ?? 'mp3_44100_128';
    const pcm = /^pcm_(16000|22050|24000|44100)$/.exec(format);
    if (!pcm) return detail(res, 400, 'invalid_output_format', `The peer speaks PCM formats only, not ${format}.`);
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    return res.end(tone(input.text.length * PEER_SECONDS_PER_CHARACTER, Number(pcm[1])));
  }

  const voice = /^\/v1\/voices\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'DELETE' && voice) {
    const voiceId = decodeURIComponent(voice[1]!);
    if (!account.voices.delete(voiceId)) return detail(res, 404, 'voice_not_found', `A voice with voice_id ${voiceId} was not found.`);
    return json(res, 200, { status: 'ok' });
  }
  return json(res, 404, { detail: 'Not Found' });
}

export async function startElevenLabsPeer(project: TestProject) {
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { detail: String(err) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('elevenLabsPeer', { baseUrl: `http://127.0.0.1:${port}` });
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
