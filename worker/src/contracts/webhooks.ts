import { z } from 'zod';
import { fromBase64, toBase64 } from '../lib/encoding';
import { ZIdempotencyKey } from './idempotency';

/**
 * /api/developer/webhooks (docs/api.md, docs/server-rules.md "Developer platform"; docs/decisions/webhooks.md).
 * Webhooks follow the Standard Webhooks specification: headers `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, secrets `whsec_` + base64.
 */
/** `missed_checkins`: a canary missed a check-in; `death_confirmed`: the guardian ladder confirmed the owner's death. */
export const WEBHOOK_EVENTS = ['missed_checkins', 'death_confirmed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A supplied secret decodes to 24–64 bytes; a generated one is 32 random bytes. */
export const WEBHOOK_SECRET_MIN_BYTES = 24;
export const WEBHOOK_SECRET_MAX_BYTES = 64;
export const WEBHOOK_SECRET_GENERATED_BYTES = 32;
export const WEBHOOK_URL_MAX_CHARS = 2048;
/** Endpoints per account (every one of them receives each event). */
export const MAX_WEBHOOKS_PER_USER = 100;
export const WEBHOOK_ATTEMPTS_PAGE_MAX = 200;

/**
 * The raw bytes of a `whsec_` secret, or null when it is not `whsec_` + canonical standard base64 (padding
 * included) of 24–64 bytes. Canonical, so that every Standard Webhooks library decodes the same bytes.
 */
export function decodeWebhookSecret(secret: string): Uint8Array<ArrayBuffer> | null {
  if (!secret.startsWith('whsec_')) return null;
  const b64 = secret.slice('whsec_'.length);
  const bytes = fromBase64(b64);
  // Non-canonical encodings (stray bits in the last character) would decode differently elsewhere.
  if (!bytes || toBase64(bytes) !== b64) return null;
  if (bytes.byteLength < WEBHOOK_SECRET_MIN_BYTES || bytes.byteLength > WEBHOOK_SECRET_MAX_BYTES) return null;
  return bytes;
}

const SECRET_RULE = `hmac_secret must be whsec_ followed by the base64 of ${WEBHOOK_SECRET_MIN_BYTES} to ${WEBHOOK_SECRET_MAX_BYTES} bytes`;

/** POST /api/developer/webhooks. An empty or missing `hmac_secret` means "generate one". */
export const ZCreateWebhookInput = z.object({
  url: z
    .string({ message: 'url is required' })
    .trim()
    .min(1, { message: 'url is required' })
    .max(WEBHOOK_URL_MAX_CHARS, { message: `url must be at most ${WEBHOOK_URL_MAX_CHARS} characters` })
    .refine((u) => URL.canParse(u), { message: 'url must be an absolute URL' })
    .meta({ format: 'uri' }),
  event: z.enum(WEBHOOK_EVENTS, { message: `event must be one of ${WEBHOOK_EVENTS.join(', ')}` }),
  hmac_secret: z
    .string()
    .max(200, { message: SECRET_RULE })
    .refine((s) => s === '' || decodeWebhookSecret(s) !== null, { message: SECRET_RULE })
    .nullable()
    .optional(),
  retry: z.boolean({ message: 'retry must be true or false' }),
  /** Optional: sent again with the same key and input, the call answers with the endpoint (and secret) its first try wrote. */
  idempotency_key: ZIdempotencyKey,
});
export type TCreateWebhookInput = z.output<typeof ZCreateWebhookInput>;

export const ZWebhookAttemptsQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a whole number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(WEBHOOK_ATTEMPTS_PAGE_MAX, { message: `limit must be at most ${WEBHOOK_ATTEMPTS_PAGE_MAX}` })
    .optional(),
});

/** A listed endpoint: the secret masked (`whsec_…abcd`). */
export const ZWebhookView = z.object({
  id: z.string(),
  url: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  retry: z.boolean(),
  hmac_secret: z.string().describe('masked: whsec_… and the last 4 characters'),
  status: z.enum(['active', 'disabled']),
  disabled_reason: z.string().nullable(),
  disabled_at: z.string().nullable(),
  sandbox: z.boolean(),
  created_at: z.string(),
});
export type TWebhookView = z.output<typeof ZWebhookView>;

/** The answer to create: the only one that carries the whole secret. */
export const ZWebhookCreated = ZWebhookView.extend({ hmac_secret: z.string().describe('the whole secret, shown this once') });
export type TWebhookCreated = z.output<typeof ZWebhookCreated>;

/** What made a delivery: a real canary miss, 'Send test event', or a sandbox key's simulated event. */
export const WEBHOOK_EVENT_ORIGINS = ['event', 'test', 'sandbox'] as const;
export type TWebhookEventOrigin = (typeof WEBHOOK_EVENT_ORIGINS)[number];

/** One attempt, newest first on GET …/{id}/attempts. */
export const ZWebhookAttempt = z.object({
  id: z.string(),
  webhook_id: z.string().describe('the endpoint'),
  event: z.string(),
  message_id: z.string().describe('the webhook-id header: the same for every attempt of one event'),
  attempt: z.number().int(),
  status_code: z.number().int().nullable().describe('null: no HTTP answer (timeout, connection error, URL refused)'),
  success: z.boolean(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  origin: z.enum(WEBHOOK_EVENT_ORIGINS).describe("event: a real missed check-in; test: 'Send test event'; sandbox: simulated with a sandbox key"),
  created_at: z.string(),
});
export type TWebhookAttempt = z.output<typeof ZWebhookAttempt>;

export const ZWebhookTestResult = z.object({ delivered: z.boolean(), attempt: ZWebhookAttempt });
export type TWebhookTestResult = z.output<typeof ZWebhookTestResult>;

/** The body of a `missed_checkins` webhook (Standard Webhooks: `{type, timestamp, data}`). */
export const ZMissedCheckinsPayload = z.object({
  type: z.literal('missed_checkins'),
  timestamp: z.string(),
  data: z.object({
    user_id: z.string(),
    event: z.literal('missed_checkins'),
    canary_id: z.string(),
    misses: z.number().int(),
    deadline: z.string(),
    sandbox: z.literal(true).optional().describe('present on events made with a sandbox API key (POST /api/sandbox/missed-checkins)'),
    test: z.literal(true).optional().describe("present on 'Send test event' deliveries"),
  }),
});
export type TMissedCheckinsPayload = z.output<typeof ZMissedCheckinsPayload>;

/**
 * The body of a `death_confirmed` webhook: the ladder confirmed the death of the endpoint's owner (a report
 * by a quorum of guardians or an authorised key, then a veto window that passed without a check-in).
 * `timestamp` is the confirmation, so the body is the same on every retry.
 */
export const ZDeathConfirmedPayload = z.object({
  type: z.literal('death_confirmed'),
  timestamp: z.string(),
  data: z.object({
    user_id: z.string(),
    event: z.literal('death_confirmed'),
    report_id: z.string(),
    reported_at: z.string(),
    window_ends_at: z.string(),
    confirmed_at: z.string(),
    sandbox: z.literal(true).optional().describe('present when a sandbox API key reported the death (a rehearsal: the death flag is not set)'),
    test: z.literal(true).optional().describe("present on 'Send test event' deliveries"),
  }),
});
export type TDeathConfirmedPayload = z.output<typeof ZDeathConfirmedPayload>;

/** POST /api/sandbox/missed-checkins: which canary's miss to simulate (default: the one GET /api/canary/status reports). */
export const ZSimulateMissedCheckinsInput = z.object({ canary_id: z.uuid({ message: 'canary_id must be a canary id' }).optional() }).strict();
export type TSimulateMissedCheckinsInput = z.output<typeof ZSimulateMissedCheckinsInput>;

/** What a simulated miss sent: the event's data and how many endpoints it was queued for. */
export const ZSimulatedMissedCheckins = z.object({
  event_id: z.string().describe('`sandbox:` + a UUID; never a real miss'),
  canary_id: z.string(),
  misses: z.number().int(),
  deadline: z.string(),
  sandbox: z.literal(true),
  deliveries: z.number().int().describe('active endpoints subscribed to missed_checkins that the event was queued for'),
});
export type TSimulatedMissedCheckins = z.output<typeof ZSimulatedMissedCheckins>;
