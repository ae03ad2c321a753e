import { z } from 'zod';
import { NOTIFY_METHODS } from '@afterword/db/enums';

export { NOTIFY_METHODS };
export type NotifyMethod = (typeof NOTIFY_METHODS)[number];

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
export const ZClockTime = z.string().trim().regex(HH_MM, { message: 'times must be HH:MM (24-hour)' });

/**
 * GET|POST /api/notify/preferences (docs/product.md "Delivery channels and notifications"). Quiet hours start =
 * end means none.
 */
export const ZNotifyPreferences = z.object({
  methods: z
    .array(z.enum(NOTIFY_METHODS, { message: `methods must be among ${NOTIFY_METHODS.join(', ')}` }))
    .max(NOTIFY_METHODS.length)
    .transform((m) => [...new Set(m)]),
  quiet_hours: z.object({ start: ZClockTime, end: ZClockTime }),
  alerts: z.object({ vaults: z.boolean(), messages: z.boolean(), canary_events: z.boolean() }),
});
export type TNotifyPreferences = z.output<typeof ZNotifyPreferences>;
export type TNotifyPreferencesInput = z.input<typeof ZNotifyPreferences>;

/** A new user's preferences: told by email and push, quiet 22:00–07:00 in their time zone, every alert on. */
export const DEFAULT_NOTIFY_PREFERENCES: TNotifyPreferences = {
  methods: ['email', 'push'],
  quiet_hours: { start: '22:00', end: '07:00' },
  alerts: { vaults: true, messages: true, canary_events: true },
};

/** POST /api/notify/push/subscriptions: PushSubscription.toJSON() from the browser. */
export const ZPushSubscription = z.object({
  endpoint: z
    .string()
    .trim()
    .url({ message: 'endpoint must be a URL' })
    .max(2048)
    .refine((u) => /^https?:\/\//.test(u), { message: 'endpoint must be an http(s) URL' }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, { message: 'keys.p256dh must be a base64url P-256 public key' }),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,24}={0,2}$/, { message: 'keys.auth must be a base64url 16-byte secret' }),
  }),
});
export type TPushSubscription = z.output<typeof ZPushSubscription>;
export const ZPushEndpoint = z.object({ endpoint: z.string().trim().min(1).max(2048) });

/** What the owner sees of a device: never the full endpoint (it is a capability URL) nor the keys. */
export const ZPushSubscriptionView = z.object({ id: z.string(), endpoint_origin: z.string(), created_at: z.string() });
export type PushSubscriptionView = z.infer<typeof ZPushSubscriptionView>;
