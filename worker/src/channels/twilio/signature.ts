import { fromBase64, toBase64 } from '../../lib/encoding';

/**
 * Twilio request signatures (`X-Twilio-Signature`), on WebCrypto only.
 *
 * Twilio's algorithm (docs: "Webhooks security"; reference implementation: twilio-node
 * `src/webhooks/webhooks.ts`):
 *   1. start from the full URL Twilio requested, query string included;
 *   2. for a form POST, sort the parameter names (case-sensitive, code-unit order) and append each
 *      name immediately followed by its value, no delimiters (a repeated name contributes each distinct
 *      value, values sorted);
 *   3. HMAC-SHA1 that string (UTF-8) with the account's auth token as key; base64 the 20-byte digest.
 *
 * Like twilio-node, verification accepts the signature computed over the URL with or without an
 * explicit port (Twilio is inconsistent about `:443`), and the comparison is constant-time
 * (`crypto.subtle.verify` on the decoded MAC).
 *
 * JSON webhooks signed with `bodySHA256` in the query string are out of scope: status callbacks for
 * Messages and Calls are form-encoded.
 */

export type TwilioParams = URLSearchParams | Record<string, string | readonly string[]>;

const encoder = new TextEncoder();

async function hmacKey(authToken: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(authToken), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign', 'verify']);
}

function groupParams(params: TwilioParams): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  const add = (name: string, value: string) => {
    const values = grouped.get(name);
    if (values) values.push(value);
    else grouped.set(name, [value]);
  };
  if (params instanceof URLSearchParams) {
    for (const [name, value] of params) add(name, value);
  } else {
    for (const [name, value] of Object.entries(params)) {
      if (typeof value === 'string') add(name, value);
      else for (const v of value) add(name, v);
    }
  }
  return grouped;
}

/** The exact string Twilio signs: the URL followed by the sorted name+value pairs. */
export function twilioSignedPayload(url: string, params: TwilioParams = {}): string {
  const grouped = groupParams(params);
  let data = url;
  for (const name of [...grouped.keys()].sort()) {
    const values = [...new Set(grouped.get(name))].sort();
    for (const value of values) data += name + value;
  }
  return data;
}

/** `X-Twilio-Signature` for `url` (exactly as given) and `params`. Used by tests and by peers playing Twilio. */
export async function computeTwilioSignature(authToken: string, url: string, params: TwilioParams = {}): Promise<string> {
  const key = await hmacKey(authToken);
  return toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(twilioSignedPayload(url, params)))));
}

const AUTHORITY = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(:\d*)?/i;

/**
 * The URL variants Twilio may have signed: the URL as given and WHATWG-serialised (which
 * percent-encodes e.g. `'` in the query), each also without its port, or with the default port
 * (`:443`/`:80`) when it has none. String surgery, not `URL`, because `URL` drops default ports.
 */
function urlCandidates(url: string): string[] {
  const candidates = new Set<string>();
  const add = (u: string) => {
    candidates.add(u);
    const m = AUTHORITY.exec(u);
    if (!m) return;
    const [whole, scheme = '', userinfo = '', host = '', port] = m;
    const rest = u.slice(whole.length);
    const lower = scheme.toLowerCase();
    if (port) candidates.add(`${scheme}//${userinfo}${host}${rest}`);
    else if (lower === 'https:' || lower === 'http:') candidates.add(`${scheme}//${userinfo}${host}${lower === 'https:' ? ':443' : ':80'}${rest}`);
  };
  add(url);
  try {
    add(new URL(url).toString());
  } catch {
    // not a URL: only the string as given
  }
  return [...candidates];
}

/**
 * True when `signatureHeader` is Twilio's signature of `url` + `params` under `authToken`.
 * `url` must be the public URL Twilio called (behind a proxy, rebuild it from the configured origin,
 * not from the request as the Worker sees it). Missing or malformed headers are simply invalid.
 */
export async function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: TwilioParams,
  signatureHeader: string | null | undefined,
): Promise<boolean> {
  if (!authToken || !signatureHeader) return false;
  const mac = fromBase64(signatureHeader.trim());
  if (mac?.length !== 20) return false;
  const key = await hmacKey(authToken);
  let valid = false;
  // Every candidate is checked (no early exit), each with WebCrypto's constant-time MAC comparison.
  for (const candidate of urlCandidates(url)) {
    const ok = await crypto.subtle.verify('HMAC', key, mac, encoder.encode(twilioSignedPayload(candidate, params)));
    valid = valid || ok;
  }
  return valid;
}

/**
 * Verifies a form-encoded Twilio callback (e.g. `POST /api/notify/twilio/status`). `publicUrl` is the
 * URL Twilio was given (default: the request's own URL). Returns the parsed parameters when valid,
 * `null` otherwise. The request body is read from a clone, so the caller may still read it.
 */
export async function verifyTwilioRequest(request: Request, authToken: string, publicUrl: string = request.url): Promise<URLSearchParams | null> {
  const signature = request.headers.get('x-twilio-signature');
  if (!signature) return null;
  const contentType = request.headers.get('content-type') ?? '';
  let params = new URLSearchParams();
  if (request.method === 'POST') {
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) return null;
    // arrayBuffer + TextDecoder: workerd warns on .text() for a non-text content type.
    params = new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer()));
  }
  return (await verifyTwilioSignature(authToken, publicUrl, params, signature)) ? params : null;
}
