import { z } from 'zod';
import type { AttachmentUploaded, AttachmentView, StorageView } from '../contracts/attachments';
import { PLANS, type PasswordResetInspection } from '../contracts/auth';
import { type KeyBundleView, type PublicKeyView } from '../contracts/e2ee';
import { ZPublicKeyJwk, ZWrappedPrivateKey } from '../contracts/e2ee';
import {
  DELIVERY_METHODS,
  MESSAGE_STATUSES,
  TRIGGER_TYPES,
  type DeliveryLogEntry,
  type MessageRuleView,
  type MessageTransitionView,
  type MessageView,
} from '../contracts/messages';
import { ZScheduledDeletion } from '../contracts/legal';
import type { PhoneVerificationStarted, ProfileView } from '../contracts/profile';
import type { listOutbox } from '../channels/outbox';
import type { listScheduledDeletions } from '../domains/legal/list-deletions';
import type { getMessageDetail } from '../domains/messages/read-messages';
import type { PushSubscriptionView } from '../domains/notify/push-subscriptions';

/*
 * Response schemas for answers that the contracts describe only as TypeScript interfaces. Each one is
 * written through `mirrors<Interface>()`, so `tsc` fails as soon as the schema and the interface the
 * service returns drift apart (in either direction). Request bodies never live here: they are the
 * contracts' own zod schemas.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** `mirrors<T>()(schema)` compiles only when the schema's output type is exactly T. */
export function mirrors<T>() {
  return <S extends z.ZodType>(schema: S, ..._sameAsInterface: Same<z.output<S>, T> extends true ? [] : [never]): S => schema;
}

export const ZOk = z.object({ ok: z.literal(true) });

export const ZMessageRuleView = mirrors<MessageRuleView>()(
  z.object({
    trigger_type: z.enum(TRIGGER_TYPES),
    trigger_value: z.string(),
    expire_window: z.number().int().nullable().describe('Days the rule stays armable after it first could fire; null = no limit'),
    fired_at: z.string().nullable(),
  }),
);

export const ZMessageView = mirrors<MessageView>()(
  z.object({
    id: z.string(),
    sender_id: z.string(),
    recipient_user_id: z.string(),
    recipient_email: z.string().optional(),
    sender_email: z.string().optional(),
    sender_name: z.string().optional(),
    content: z.string().describe("Empty for an end-to-end encrypted message (the sealed text is in content_encrypted)"),
    content_encrypted: z.string().nullable().describe('The v1 envelope as JSON (use_e2ee), else null'),
    deliver_at: z.string(),
    delivered: z.boolean().describe("True once released: the recipient has it in their inbox (status tells how the channel went)"),
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
  }),
);

export const ZMessageTransitionView = mirrors<MessageTransitionView>()(
  z.object({
    at: z.string(),
    from: z.enum(MESSAGE_STATUSES).nullable(),
    to: z.enum(MESSAGE_STATUSES),
    cause: z.string(),
    detail: z.string(),
  }),
);

export const ZDeliveryLogEntry = mirrors<DeliveryLogEntry>()(
  z.object({
    created_at: z.string(),
    channel: z.enum([...DELIVERY_METHODS, 'inbox']),
    success: z.boolean(),
    error: z.string().optional(),
    attempt: z.number().int(),
  }),
);

export const ZMessageDetail = mirrors<Awaited<ReturnType<typeof getMessageDetail>>>()(
  z.object({
    message: ZMessageView,
    transitions: z.array(ZMessageTransitionView),
    log: z.array(ZDeliveryLogEntry),
    role: z.enum(['sender', 'recipient']),
  }),
);

export const ZScheduledDeletions = mirrors<Awaited<ReturnType<typeof listScheduledDeletions>>>()(z.object({ items: z.array(ZScheduledDeletion) }));

export const ZAttachmentUploaded = mirrors<AttachmentUploaded>()(
  z.object({ id: z.string(), message_id: z.string(), iv: z.string(), name: z.string(), size: z.number().int() }),
);

export const ZAttachmentView = mirrors<AttachmentView>()(
  z.object({ id: z.string(), iv: z.string(), name: z.string(), size: z.number().int(), created_at: z.string() }),
);

export const ZStorageView = mirrors<StorageView>()(
  z.object({ used_bytes: z.number().int(), limit_bytes: z.number().int(), plan: z.enum(PLANS) }),
);

const profileShape = {
  id: z.string(),
  email: z.string(),
  display_name: z.string(),
  time_zone: z.string(),
  phone: z.string().nullable(),
  phone_verified: z.boolean(),
  pending_phone: z.string().nullable().describe('A verification in progress: the number the code went to'),
};
export const ZProfileView = mirrors<ProfileView>()(z.object(profileShape));
export const ZPhoneVerificationStarted = mirrors<PhoneVerificationStarted>()(
  z.object({ ...profileShape, code_expires_at: z.string(), resend_available_at: z.string() }),
);

export const ZKeyBundleView = mirrors<KeyBundleView>()(
  z.object({ public_key: ZPublicKeyJwk, password_wrap: ZWrappedPrivateKey, recovery_wrap: ZWrappedPrivateKey, created_at: z.string() }),
);

export const ZPublicKeyView = mirrors<PublicKeyView>()(z.object({ user_id: z.string(), public_key: ZPublicKeyJwk }));

export const ZPasswordResetInspection = mirrors<PasswordResetInspection>()(
  z.object({ email: z.string(), has_keys: z.boolean(), recovery_wrap: ZWrappedPrivateKey.nullable() }),
);

export const ZPushSubscriptionView = mirrors<PushSubscriptionView>()(
  z.object({ id: z.string(), endpoint_origin: z.string(), created_at: z.string() }),
);

export const ZOutboxMessage = mirrors<Awaited<ReturnType<typeof listOutbox>>[number]>()(
  z.object({
    id: z.string(),
    channel: z.enum(['email', 'sms', 'call', 'push']),
    address: z.string(),
    recipient_user_id: z.string().nullable().describe('The account the delivery was for; null when none is known (operator view only)'),
    subject: z.string(),
    text: z.string(),
    link: z.string().nullable(),
    idempotency_key: z.string(),
    created_at: z.string(),
  }),
);

/** Every error: `{detail}`, a sentence or FastAPI-style field issues (docs/decisions/api-errors.md). */
export const ERROR_SCHEMA = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      description: 'What went wrong: a sentence, or (422) one entry per invalid field.',
      oneOf: [
        { type: 'string' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['loc', 'msg', 'type'],
            properties: {
              loc: { type: 'array', items: { type: ['string', 'integer'] }, description: 'Where: ["body", "email"], ["query", "limit"]…' },
              msg: { type: 'string' },
              type: { type: 'string', description: 'A machine-readable kind: missing, invalid_type, too_small…' },
            },
          },
        },
      ],
    },
    request_id: { type: 'string', description: 'Only on 500: the id under which the error was logged.' },
  },
} as const;
