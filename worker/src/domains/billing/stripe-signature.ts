import { toHex } from '../../lib/encoding';
import { AppError } from '../../lib/errors';
import { constantTimeEqual } from '../../lib/secrets';

/**
 * Stripe's webhook signature scheme (docs.stripe.com/webhooks#verify-manually): the `Stripe-Signature`
 * header is `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, where each v1 is HMAC-SHA256 keyed by the endpoint's
 * signing secret over `${t}.${raw body}`. A signature is accepted when one v1 matches (compared in
 * constant time) and `t` is within the tolerance of now, which refuses replays of old captures.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return toHex(mac);
}

/** The header a provider would send for `payload` at `timestamp` (seconds): the sandbox signs with it. */
export async function signStripePayload(secret: string, payload: string, timestamp: number): Promise<string> {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${payload}`)}`;
}

const invalid = (why: string) => new AppError('BAD_REQUEST', `Invalid Stripe-Signature: ${why}`);

/** Throws 400 unless `header` signs `payload` with `secret` within the tolerance of `nowMs`. */
export async function verifyStripeSignature(secret: string, payload: string, header: string | undefined, nowMs: number): Promise<void> {
  if (!header) throw invalid('the header is missing');
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (name === 'v1') signatures.push(value.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) throw invalid('no timestamp or no v1 signature');
  if (Math.abs(nowMs / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) throw invalid('the timestamp is outside the tolerance');
  const expected = await hmacHex(secret, `${timestamp}.${payload}`);
  let matched = false;
  // Every candidate is compared, in time that depends only on the lengths (a hex SHA-256's is public).
  for (const s of signatures) matched = constantTimeEqual(encoder.encode(s), encoder.encode(expected)) || matched;
  if (!matched) throw invalid('no signature matches');
}
