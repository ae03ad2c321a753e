import { z } from 'zod';
import { ZIdempotencyKey } from './idempotency';
import { DELIVERY_METHODS, MESSAGE_RULE_TYPES, MESSAGE_STATUSES, TRIGGER_TYPES } from '@afterword/db/enums';

export { DELIVERY_METHODS, MESSAGE_RULE_TYPES, MESSAGE_STATUSES, TRIGGER_TYPES };
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export type MessageRuleType = (typeof MESSAGE_RULE_TYPES)[number];

export const CONTENT_MAX_CHARS = 100_000;
export const AUDIO_MAX_BYTES = 10 * 1024 * 1024;
/** Base64 of AUDIO_MAX_BYTES plus padding: longer strings are refused before decoding. */
export const AUDIO_BASE64_MAX_CHARS = Math.ceil(AUDIO_MAX_BYTES / 3) * 4;
/** AES-GCM adds a 16-byte tag: the sealed audio of an E2EE message may be this much longer. */
export const SEALED_AUDIO_MAX_BYTES = AUDIO_MAX_BYTES + 16;
/**
 * A v1 envelope (contracts/e2ee.ts) as JSON: `ct` up to 400,000 bytes (533,334 base64url characters)
 * plus up to 4 recipient wraps.
 */
export const CONTENT_ENCRYPTED_MAX_CHARS = 560_000;
/** The create call carries the audio inline (docs/api.md), so its body may be larger than 1 MiB. */
export const MESSAGE_CREATE_MAX_BODY_BYTES = Math.ceil(SEALED_AUDIO_MAX_BYTES / 3) * 4 + CONTENT_MAX_CHARS * 4 + CONTENT_ENCRYPTED_MAX_CHARS + 64 * 1024;
export const RULES_MAX = 10;
export const MISSED_CHECKINS_MAX = 1000;
export const DAYS_MAX = 3650;
export const EXPIRE_WINDOW_MAX_DAYS = 365;

export const TRIGGER_LABELS: Record<TriggerType, string> = {
  missed_checkins: 'Missed check-ins',
  fixed_date: 'Fixed date',
  delay_after_death: 'Delay after death',
  recipient_birthday: "Recipient's birthday after death",
};

/**
 * `YYYY-MM-DD` or an ISO date-time; a date-time without an offset is UTC
 * (docs/server-rules.md "Messages, rules and release").
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The instant an ISO date or date-time names, or null when it is not one. */
export function parseIsoInstant(value: string): Date | null {
  const v = value.trim();
  if (!ISO_DATE.test(v) && !ISO_DATE_TIME.test(v)) return null;
  const withZone = ISO_DATE.test(v) ? `${v}T00:00:00Z` : /(Z|[+-]\d{2}:\d{2})$/.test(v) ? v : `${v}Z`;
  const d = new Date(withZone);
  if (Number.isNaN(d.getTime())) return null;
  // Reject dates the engine would silently roll over (2026-02-31 → March 3).
  const [y, m, day] = v.slice(0, 10).split('-').map(Number);
  const check = new Date(Date.UTC(y!, m! - 1, day!));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m! - 1 || check.getUTCDate() !== day) return null;
  return d;
}

const wholeNumber = (label: string, min: number, max: number) =>
  z.union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], { message: `${label} must be a whole number` }).pipe(
    z
      .number({ message: `${label} must be a number` })
      .int({ message: `${label} must be a whole number` })
      .min(min, { message: `${label} must be at least ${min}` })
      .max(max, { message: `${label} must be at most ${max}` }),
  );

const ZExpireWindow = z
  .union([z.null(), z.literal('').transform(() => null), wholeNumber('expire_window (days)', 0, EXPIRE_WINDOW_MAX_DAYS)])
  .optional()
  .transform((v) => v ?? null);

/**
 * One rule, validated by its type (docs/server-rules.md "Messages, rules and release"). trigger_value is stored
 * as a canonical string.
 */
export const ZRule = z.discriminatedUnion(
  'trigger_type',
  [
    z.object({
      trigger_type: z.literal('missed_checkins'),
      trigger_value: wholeNumber('missed check-ins count', 1, MISSED_CHECKINS_MAX).transform(String),
      expire_window: ZExpireWindow,
    }),
    z.object({
      trigger_type: z.literal('fixed_date'),
      trigger_value: z
        .string({ message: 'fixed date must be an ISO date (YYYY-MM-DD) or date-time' })
        .trim()
        .refine((v) => parseIsoInstant(v) !== null, { message: 'fixed date must be an ISO date (YYYY-MM-DD) or date-time' }),
      expire_window: ZExpireWindow,
    }),
    z.object({
      trigger_type: z.literal('delay_after_death'),
      trigger_value: wholeNumber('delay after death (days)', 0, DAYS_MAX).transform(String),
      expire_window: ZExpireWindow,
    }),
  ],
  { message: `trigger_type must be one of ${MESSAGE_RULE_TYPES.join(', ')}` },
);
export type TRuleInput = z.input<typeof ZRule>;
export type TRule = z.output<typeof ZRule>;

export const ZUserId = z.string().trim().uuid({ message: 'recipient_user_id must be a user id (a UUID)' });

/** POST /api/message/create (docs/product.md "Messages and release rules"; docs/api.md). */
export const ZCreateMessageInput = z.object({
  recipient_user_id: ZUserId,
  content: z
    .string()
    .max(CONTENT_MAX_CHARS, { message: `content must be at most ${CONTENT_MAX_CHARS.toLocaleString('en-US')} characters` })
    .default(''),
  /** Empty or absent = now. */
  deliver_at: z
    .union([
      z.null(),
      z.literal(''),
      z
        .string()
        .trim()
        .refine((v) => v === '' || parseIsoInstant(v) !== null, { message: 'deliver_at must be an ISO date or date-time' }),
    ])
    .optional()
    .transform((v) => (v ? v : null)),
  delivery_method: z.enum(DELIVERY_METHODS, { message: `delivery_method must be one of ${DELIVERY_METHODS.join(', ')}` }),
  use_e2ee: z.boolean().default(false),
  /** With use_e2ee: the v1 envelope as JSON (contracts/e2ee.ts) and `content` empty; otherwise absent or null. */
  content_encrypted: z
    .string({ message: 'content_encrypted must be a string (the envelope as JSON)' })
    .max(CONTENT_ENCRYPTED_MAX_CHARS, { message: `content_encrypted must be at most ${CONTENT_ENCRYPTED_MAX_CHARS.toLocaleString('en-US')} characters` })
    .optional()
    .nullable(),
  rules: z
    .array(ZRule)
    .max(RULES_MAX, { message: `at most ${RULES_MAX} rules` })
    .default([]),
  consent: z.literal(true, { message: 'consent must be true' }),
  /** Size is checked on the decoded bytes (413 past 10 MB) and bounded by this call's body limit. */
  audio_base64: z.string().optional().nullable(),
  /** Optional: sent again with the same key and input, the call answers with the message its first try wrote. */
  idempotency_key: ZIdempotencyKey,
});
export type TCreateMessageInput = z.input<typeof ZCreateMessageInput>;
export type TCreateMessage = z.output<typeof ZCreateMessageInput>;

/** The refusals of an end-to-end encrypted create (the browser shows them as they are). */
export const E2EE_MESSAGE_ERRORS = {
  contentNotEmpty: 'content must be empty for an end-to-end encrypted message; the sealed text goes in content_encrypted',
  envelopeMissing: 'content_encrypted is required for an end-to-end encrypted message (the sealed envelope)',
  noRecipientWrap: 'The envelope has no key for the recipient: it needs a recipients entry whose kid is recipient_user_id',
  recipientHasNoKeys: 'The recipient has not set up encryption keys yet',
  notE2ee: 'content_encrypted is only for end-to-end encrypted messages: set use_e2ee to true, or leave content_encrypted out',
} as const;

export const MESSAGE_FILTERS = ['all', 'pending', 'sent'] as const;
export type MessageFilter = (typeof MESSAGE_FILTERS)[number];

/*
 * Response schemas: each answer's type is inferred from its schema, so the server's services (which
 * declare these types as their return types), the OpenAPI document and the web app read one definition.
 */

export const ZMessageRuleView = z.object({
  trigger_type: z.enum(TRIGGER_TYPES),
  trigger_value: z.string(),
  expire_window: z.number().int().nullable().describe('Days the rule stays armable after it first could fire; null = no limit'),
  fired_at: z.string().nullable(),
});
export type MessageRuleView = z.infer<typeof ZMessageRuleView>;

/** A message as its sender (or, once released, its recipient) sees it. */
/** An open message (or vault item) held by its sender's withdrawn messages consent; null otherwise. */
export const ZPaused = z.enum(['consent_withdrawn']).nullable();
export type TPaused = z.infer<typeof ZPaused>;

/**
 * Why a message can never be delivered: `recipient_left` — its recipient deleted their account before it
 * was released (it was cancelled then; docs/decisions/data-rights.md). Null otherwise.
 */
export const ZUndeliverable = z.enum(['recipient_left']).nullable();
export type TUndeliverable = z.infer<typeof ZUndeliverable>;

export const ZMessageView = z.object({
  id: z.string(),
  sender_id: z.string(),
  recipient_user_id: z.string().nullable().describe('Null once the recipient deleted their Afterword account'),
  recipient_email: z.string().optional(),
  sender_email: z.string().optional(),
  sender_name: z.string().optional(),
  content: z.string().describe('Empty for an end-to-end encrypted message (the sealed text is in content_encrypted)'),
  content_encrypted: z.string().nullable().describe('The v1 envelope as JSON (use_e2ee), else null'),
  deliver_at: z.string(),
  delivered: z.boolean().describe('True once released: the recipient has it in their inbox (status tells how the channel went)'),
  delivery_method: z.enum(DELIVERY_METHODS),
  use_e2ee: z.boolean(),
  rules: z.array(ZMessageRuleView),
  status: z.enum(MESSAGE_STATUSES),
  has_audio: z.boolean(),
  audio_type: z.string().nullable(),
  armed_at: z.string().nullable(),
  cancel_deadline: z.string().nullable(),
  released_at: z.string().nullable(),
  created_at: z.string(),
  /** Why an open message is not moving: `consent_withdrawn` while its sender's messages consent is withdrawn (nothing arms or releases it). */
  paused: ZPaused,
  /** `recipient_left`: the recipient deleted their account before it was released; it was cancelled and is never delivered. */
  undeliverable: ZUndeliverable,
});
export type MessageView = z.infer<typeof ZMessageView>;

export const ZMessageTransitionView = z.object({
  at: z.string(),
  from: z.enum(MESSAGE_STATUSES).nullable(),
  to: z.enum(MESSAGE_STATUSES),
  cause: z.string(),
  detail: z.string(),
});
export type MessageTransitionView = z.infer<typeof ZMessageTransitionView>;

export const ZDeliveryLogEntry = z.object({
  created_at: z.string(),
  channel: z.enum([...DELIVERY_METHODS, 'inbox']),
  success: z.boolean(),
  error: z.string().optional(),
  attempt: z.number().int(),
});
export type DeliveryLogEntry = z.infer<typeof ZDeliveryLogEntry>;

/**
 * Why a message was released, as its recipient is told it ("Released because Ann missed 3 check-ins"):
 * the rule that fired, its delivery time (no rules), or the sender releasing it by hand. Derived from the
 * message's release transition, never the sender's rules as such.
 */
export const RELEASE_REASON_KINDS = ['missed_checkins', 'fixed_date', 'delay_after_death', 'recipient_birthday', 'deliver_at', 'by_sender'] as const;
export type ReleaseReasonKind = (typeof RELEASE_REASON_KINDS)[number];
export const ZReleaseReason = z.object({
  kind: z.enum(RELEASE_REASON_KINDS),
  /** missed_checkins: how many check-ins were missed; delay_after_death: the days after the death; else null. */
  count: z.number().int().nullable(),
});
export type ReleaseReason = z.infer<typeof ZReleaseReason>;

/**
 * A released message as its recipient sees it (their Inbox and its page): who it is from, when and why
 * it reached them, its content — and none of the sender's internals (rules, channel, delivery log, states).
 */
export const ZReceivedMessage = z.object({
  id: z.string(),
  sender: z.object({ id: z.string(), email: z.string(), name: z.string().nullable().describe('Their display name, when they set one') }),
  content: z.string().describe('Empty for an end-to-end encrypted message (the sealed text is in content_encrypted)'),
  content_encrypted: z.string().nullable().describe('The v1 envelope as JSON (use_e2ee), else null'),
  use_e2ee: z.boolean(),
  has_audio: z.boolean(),
  audio_type: z.string().nullable(),
  released_at: z.string().describe('When it was released into your inbox'),
  read_at: z.string().nullable().describe('When you first opened it; null = unread'),
  release_reason: ZReleaseReason,
});
export type ReceivedMessage = z.infer<typeof ZReceivedMessage>;

/** GET /api/message/unread-count: released messages addressed to the caller that they have not opened. */
export const ZUnreadCount = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof ZUnreadCount>;

/** GET /api/message/{id} for its sender: the message, its state history and delivery attempts. */
export const ZSenderMessageDetail = z.object({
  role: z.literal('sender'),
  message: ZMessageView,
  transitions: z.array(ZMessageTransitionView),
  log: z.array(ZDeliveryLogEntry),
});
/** GET /api/message/{id} for its recipient (once released): their copy only, no history or log. */
export const ZRecipientMessageDetail = z.object({ role: z.literal('recipient'), message: ZReceivedMessage });
export const ZMessageDetail = z.discriminatedUnion('role', [ZSenderMessageDetail, ZRecipientMessageDetail]);
export type SenderMessageDetail = z.infer<typeof ZSenderMessageDetail>;
export type MessageDetail = z.infer<typeof ZMessageDetail>;
