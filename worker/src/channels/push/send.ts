/**
 * The Web Push adapter (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID), fetch + WebCrypto.
 *
 * Outcome mapping (DeliveryResult):
 *   2xx (201 Created, 202 Accepted)          → ok; providerId = the push message resource (Location), if any
 *   404 / 410                                → { ok:false, retryable:false, gone:true } — remove the subscription
 *   408 / 425 / 429 / 5xx, network, timeout  → retryable (timeout 10 s by default)
 *   anything else (400, 401, 403, 413, …)    → not retryable
 *
 * What the service worker receives is JSON `{title, body, url}` (see `pushPayload`). For E2EE messages
 * the caller's `OutgoingMessage.text` is already a notice and a link, never the plaintext.
 */
import { toBase64Url } from '../../lib/encoding';
import type { DeliveryResult, OutgoingMessage, PushSubscriptionJson } from '../types';
import { encryptPushPayload, MAX_PUSH_PLAINTEXT_BYTES } from './encrypt';
import { importVapid, vapidAuthorization, type VapidSigner } from './vapid';

export type Urgency = 'very-low' | 'low' | 'normal' | 'high';

export const DEFAULT_PUSH_TIMEOUT_MS = 10_000;
/** Four weeks: the longest most push services keep a message for an offline device. */
export const DEFAULT_PUSH_TTL_SECONDS = 28 * 24 * 60 * 60;

export interface SendWebPushOptions {
  vapid: VapidSigner;
  /** Seconds the push service may keep the message for an offline device (RFC 8030 section 5.2). */
  ttl: number;
  urgency: Urgency;
  /** Replaces an undelivered message with the same topic (RFC 8030 section 5.4): ≤ 32 base64url chars. */
  topic?: string;
  timeoutMs?: number;
  /** Allow `http:` endpoints (local tests against a loopback push endpoint only). */
  allowInsecureEndpoint?: boolean;
}

const te = new TextEncoder();

function failure(error: string, retryable: boolean, extra: { gone?: boolean; status?: number } = {}): DeliveryResult {
  return { ok: false, retryable, error, ...extra };
}

/** Map a push service's status to a DeliveryResult. */
export function classifyPushStatus(status: number, location?: string | null): DeliveryResult {
  if (status >= 200 && status < 300) return location ? { ok: true, providerId: location } : { ok: true };
  if (status === 404 || status === 410) {
    return failure(`push service answered ${status}: subscription gone`, false, { gone: true, status });
  }
  const retryable = status === 408 || status === 425 || status === 429 || status >= 500;
  return failure(`push service answered ${status}`, retryable, { status });
}

/**
 * Encrypt `payload` for `subscription` and POST it to the subscription's endpoint.
 * Never throws for delivery problems: every outcome is a DeliveryResult.
 */
export async function sendWebPush(subscription: PushSubscriptionJson, payload: string | Uint8Array, options: SendWebPushOptions): Promise<DeliveryResult> {
  let url: URL;
  try {
    url = new URL(subscription.endpoint);
  } catch {
    return failure('invalid push endpoint', false);
  }
  if (url.protocol !== 'https:' && !(options.allowInsecureEndpoint && url.protocol === 'http:')) {
    return failure('push endpoint must be https', false);
  }
  if (options.topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(options.topic)) {
    return failure('invalid push topic', false);
  }
  const data = typeof payload === 'string' ? te.encode(payload) : payload;
  if (data.length > MAX_PUSH_PLAINTEXT_BYTES) return failure('push payload too large', false);

  let body: Uint8Array<ArrayBuffer>;
  let authorization: string;
  try {
    body = await encryptPushPayload(data, subscription.keys);
    authorization = await vapidAuthorization(options.vapid, url.href);
  } catch {
    // Malformed p256dh/auth in the stored subscription: it can never be delivered to.
    return failure('invalid push subscription keys', false);
  }

  const headers: Record<string, string> = {
    'Content-Type': 'application/octet-stream',
    'Content-Encoding': 'aes128gcm',
    TTL: String(Math.max(0, Math.floor(options.ttl))),
    Urgency: options.urgency,
    Authorization: authorization,
  };
  if (options.topic) headers.Topic = options.topic;

  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url.href, { method: 'POST', headers, body, signal: controller.signal });
    await res.body?.cancel().catch(() => undefined);
    return classifyPushStatus(res.status, res.headers.get('Location'));
  } catch {
    return controller.signal.aborted ? failure(`push service did not answer within ${timeoutMs} ms`, true) : failure('push service unreachable', true);
  } finally {
    clearTimeout(timer);
  }
}

/** The JSON the web app's service worker shows as a notification. */
export interface PushPayload {
  title: string;
  body: string;
  url?: string;
}

/**
 * `{title, body, url}` from an OutgoingMessage, the body shortened (with an ellipsis) so the JSON fits
 * one push record (3993 bytes). The full message is always in the recipient's inbox behind `url`.
 */
export function pushPayload(message: OutgoingMessage): string {
  const make = (body: string) => JSON.stringify({ title: message.subject, body, ...(message.link ? { url: message.link } : {}) } satisfies PushPayload);
  let json = make(message.text);
  if (te.encode(json).length <= MAX_PUSH_PLAINTEXT_BYTES) return json;
  const chars = Array.from(message.text);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (te.encode(make(`${chars.slice(0, mid).join('')}…`)).length <= MAX_PUSH_PLAINTEXT_BYTES) lo = mid;
    else hi = mid - 1;
  }
  json = make(`${chars.slice(0, lo).join('')}…`);
  if (te.encode(json).length > MAX_PUSH_PLAINTEXT_BYTES) throw new Error('push title or link too long');
  return json;
}

/** A stable Topic for one delivery: retries of the same delivery replace, not duplicate, an undelivered message. */
export async function topicFor(idempotencyKey: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', te.encode(idempotencyKey)));
  return toBase64Url(digest).slice(0, 32);
}

/** The env a push channel reads (all strings, from wrangler vars and secrets). */
export interface PushEnv {
  /** `webpush` | `outbox` (default `outbox`, the local default; the outbox adapter lives elsewhere). */
  PUSH_TRANSPORT?: string;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** Seconds (default four weeks). */
  PUSH_TTL_SECONDS?: string;
  /** `true` only when testing against a loopback push endpoint over http. */
  PUSH_ALLOW_INSECURE_ENDPOINTS?: string;
}

export interface PushChannel {
  readonly kind: 'push';
  readonly transport: 'webpush';
  send(subscription: PushSubscriptionJson, message: OutgoingMessage): Promise<DeliveryResult>;
}

/**
 * The push adapter chosen by `PUSH_TRANSPORT`: `webpush` → a Web Push channel (VAPID keys required;
 * a missing or mismatched key is a configuration error thrown at the first send); `outbox` or unset →
 * `null`, meaning the caller uses the outbox adapter (written separately) instead.
 */
export function createPushChannel(env: PushEnv): PushChannel | null {
  const transport = (env.PUSH_TRANSPORT ?? 'outbox').trim().toLowerCase();
  if (transport === 'outbox') return null;
  if (transport !== 'webpush') throw new Error(`PUSH_TRANSPORT must be webpush or outbox, not "${transport}"`);
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = env;
  if (!VAPID_PUBLIC_KEY || !VAPID_PRIVATE_KEY || !VAPID_SUBJECT) {
    throw new Error('PUSH_TRANSPORT=webpush needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT');
  }
  const ttl = env.PUSH_TTL_SECONDS ? Number(env.PUSH_TTL_SECONDS) : DEFAULT_PUSH_TTL_SECONDS;
  if (!Number.isFinite(ttl) || ttl < 0) throw new Error('PUSH_TTL_SECONDS must be a non-negative number');
  const allowInsecureEndpoint = env.PUSH_ALLOW_INSECURE_ENDPOINTS === 'true';
  let signer: Promise<VapidSigner> | undefined;
  return {
    kind: 'push',
    transport: 'webpush',
    async send(subscription, message) {
      signer ??= importVapid({ publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY, subject: VAPID_SUBJECT });
      return sendWebPush(subscription, pushPayload(message), {
        vapid: await signer,
        ttl,
        urgency: 'high',
        topic: await topicFor(message.idempotencyKey),
        allowInsecureEndpoint,
      });
    },
  };
}
