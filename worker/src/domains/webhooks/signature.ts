import { decodeWebhookSecret } from '../../contracts/webhooks';
import { toBase64 } from '../../lib/encoding';

/**
 * Standard Webhooks signing (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
 * `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded
 * part of the `whsec_` secret. The published test vector reproduces exactly (test/webhooks-delivery.test.ts).
 */
export async function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): Promise<string> {
  const keyBytes = decodeWebhookSecret(secret) ?? decodeLenient(secret);
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${messageId}.${timestampSeconds}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** Stored secrets were checked at creation; this only keeps signing total for an unexpected form. */
function decodeLenient(secret: string): Uint8Array<ArrayBuffer> {
  const b64 = secret.replace(/^whsec_/, '');
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** The three Standard Webhooks headers of one attempt, plus the JSON content type. */
export async function webhookHeaders(secret: string, messageId: string, timestampSeconds: number, body: string): Promise<Record<string, string>> {
  return {
    'content-type': 'application/json',
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': await signWebhook(secret, messageId, timestampSeconds, body),
  };
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A `webhook-id`: `msg_` + 24 base62 characters (~143 random bits), fixed per (endpoint, event). */
export function newWebhookMessageId(): string {
  let out = 'msg_';
  while (out.length < 28) {
    // 248 = 4 × 62: bytes at or above it are dropped, so every character is equally likely.
    for (const b of crypto.getRandomValues(new Uint8Array(32))) if (b < 248 && out.length < 28) out += BASE62[b % 62];
  }
  return out;
}
