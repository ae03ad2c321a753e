import { z } from 'zod';
import { CANARY_NOTICE_KINDS, NOTICE_CHANNELS } from '@afterword/db/enums';
import { PAUSE_MAX_DAYS, ZCanarySchedule } from './canary-schedule';
import { ZIdempotencyKey } from './idempotency';

/** docs/server-rules.md "Canaries and check-ins": an interval is whole seconds from one minute to 400 days. */
export const INTERVAL_MIN_SECONDS = 60;
export const INTERVAL_MAX_SECONDS = 400 * 24 * 3600; // 34,560,000
export const DEFAULT_INTERVAL_SECONDS = 86_400;
/** Grace: under 20 % of the interval remaining (docs/product.md "Canaries and check-ins"). */
export const GRACE_FRACTION = 0.2;
/** Browser reminder this long before the deadline (docs/product.md "Canaries and check-ins"). */
export const REMINDER_BEFORE_DEADLINE_SECONDS = 60;
export const CANARY_NAME_MAX = 100;
/** docs/product.md "Canaries and check-ins": a canary without a name is shown as 'Unnamed'. */
export const UNNAMED_CANARY = 'Unnamed';
export const canaryLabel = (name: string) => name.trim() || UNNAMED_CANARY;

export const ZIntervalSeconds = z
  .number({ message: 'interval_seconds must be a number of seconds' })
  .int({ message: 'interval_seconds must be a whole number of seconds' })
  .min(INTERVAL_MIN_SECONDS, { message: `interval_seconds must be at least ${INTERVAL_MIN_SECONDS}` })
  .max(INTERVAL_MAX_SECONDS, { message: `interval_seconds must be at most ${INTERVAL_MAX_SECONDS} (400 days)` });

const ZCanaryName = z
  .string()
  .trim()
  .max(CANARY_NAME_MAX)
  .optional()
  .nullable()
  .transform((v) => v ?? '');

/**
 * POST /api/canary/create. The original body (`interval_seconds`, default 86400; docs/api.md) works unchanged; an
 * optional calendar `schedule` makes the deadlines follow it instead (docs/decisions/calendar-schedules.md).
 */
export const ZCreateCanaryInput = z.object({
  interval_seconds: ZIntervalSeconds.default(DEFAULT_INTERVAL_SECONDS),
  name: ZCanaryName,
  schedule: ZCanarySchedule.optional().nullable().describe('A calendar schedule; absent or null: deadlines every `interval_seconds` after the last check-in'),
  /** Optional: sent again with the same key and input, the call answers with the canary its first try wrote. */
  idempotency_key: ZIdempotencyKey,
});
export type TCreateCanaryInput = z.input<typeof ZCreateCanaryInput>;

/**
 * PATCH /api/canary/{id}: change the name, the interval or the schedule (null: back to the interval).
 * Fields left out stay as they are. Refused (409) while the canary is missed: check in first.
 */
export const ZUpdateCanaryInput = z.object({
  name: z.string().trim().max(CANARY_NAME_MAX).optional(),
  interval_seconds: ZIntervalSeconds.optional(),
  schedule: ZCanarySchedule.nullable().optional(),
});
export type TUpdateCanaryInput = z.input<typeof ZUpdateCanaryInput>;

/**
 * POST /api/canary/{id}/pause: a vacation pause until `until` (an ISO 8601 instant at most
 * PAUSE_MAX_DAYS days ahead). No deadline falls before it; the owner is told a day before it ends.
 */
export const ZPauseCanaryInput = z.object({
  // Optional here so an outsider learns nothing from a 422 before the 404 (the service requires it after
  // the ownership check, like the other bodies of operations on an owned id).
  until: z.iso
    .datetime({ offset: true, message: 'until must be an ISO 8601 date-time such as 2026-08-01T09:00:00Z' })
    .optional()
    .describe(`Required: when the pause ends, in the future, at most ${PAUSE_MAX_DAYS} days ahead`),
});
export type TPauseCanaryInput = z.input<typeof ZPauseCanaryInput>;

/** POST /api/canary/checkin: a token checks in that canary; without one, a session checks in all. */
export const ZCheckInInput = z.object({
  token: z.string().min(1).max(200).optional().nullable(),
});
export type TCheckInInput = z.input<typeof ZCheckInInput>;

export const CANARY_HEALTH = ['active', 'grace', 'missed'] as const;
export type CanaryHealth = (typeof CANARY_HEALTH)[number];

/** One canary as the API returns it (GET /api/canary/list items, POST /api/canary/create). */
export const ZCanary = z.object({
  id: z.string(),
  name: z.string(),
  interval_seconds: z.number().int(),
  active: z.boolean(),
  token: z.string(),
  last_check_in: z.string(),
  deadline: z.string(),
  status: z.enum(CANARY_HEALTH),
  misses: z.number().int(),
  created_at: z.string(),
  /** The calendar schedule, or null for an interval canary (then `interval_seconds` is its interval). */
  schedule: ZCanarySchedule.nullable(),
  /** The schedule in words ("Every Monday by 10:00 (Europe/Berlin), reminded 1 hour before"), or null. */
  schedule_words: z.string().nullable(),
  /** The end of the current vacation pause (ISO), or null when not paused. */
  paused_until: z.string().nullable(),
});
export type TCanary = z.infer<typeof ZCanary>;

/** GET /api/canary/status: the canary with the earliest deadline, or nulls when there is none. */
export const ZCanaryStatus = z.object({
  last_check_in: z.string().nullable(),
  interval_seconds: z.number().int().nullable(),
  missed: z.boolean(),
  deadline: z.string().nullable(),
  misses: z.number().int(),
  status: z.enum(CANARY_HEALTH).nullable(),
  canary_id: z.string().nullable(),
  /** That canary's calendar schedule (null: an interval canary), so a client's countdown agrees with `deadline`. */
  schedule: ZCanarySchedule.nullable(),
  /** The end of that canary's vacation pause (ISO), or null. */
  paused_until: z.string().nullable(),
});
export type TCanaryStatus = z.infer<typeof ZCanaryStatus>;

/** How a check-in came: the signed-in button, the token, a cron ping, an API key, a warning's one-tap link, or a passkey. */
export const CHECK_IN_SOURCES = ['web', 'token', 'ping', 'api-key', 'link', 'passkey'] as const;

/** How the activity feed says where a check-in came from: 'Checked in from a warning’s link: "Daily".' */
export const CHECK_IN_SOURCE_WORDS: Record<(typeof CHECK_IN_SOURCES)[number], string> = {
  web: 'with the button in the app',
  token: 'with the canary’s token',
  ping: 'by a heartbeat ping',
  'api-key': 'with an API key',
  link: 'from a warning’s link',
  passkey: 'with a passkey',
};

/** GET and POST /api/check-in-links/{token}: the token from a canary warning's link. */
export const ZCheckInLinkParams = z.object({
  token: z.string().max(200).describe("The token in a canary warning's check-in link (/check-in/{token})"),
});

/**
 * GET /api/check-in-links/{token}: what the link would check in, without checking in. `state`: `ready` (the
 * button works), `used` (it checked in at `used_at`), `expired` (after `expires_at`).
 */
export const ZCheckInLink = z.object({
  canary_name: z.string(),
  state: z.enum(['ready', 'used', 'expired']),
  expires_at: z.string(),
  used_at: z.string().nullable(),
});
export type TCheckInLink = z.infer<typeof ZCheckInLink>;

export const ZCheckInResult = z.object({
  checked_in: z.number().int(),
  last_check_in: z.string(),
  canaries: z.array(z.object({ id: z.string(), deadline: z.string() })),
});
export type TCheckInResult = z.infer<typeof ZCheckInResult>;

/** One try of a warning on one channel: where it went and whether that channel accepted it. */
export const ZWarningDelivery = z.object({
  channel: z.enum(NOTICE_CHANNELS),
  /** Masked: "o•••@example.com", "•••• 0142", "device at fcm.googleapis.com", "Activity feed". */
  address: z.string(),
  ok: z.boolean(),
  error: z.string().nullable(),
  at: z.string(),
});
export type TWarningDelivery = z.infer<typeof ZWarningDelivery>;

/**
 * GET /api/canary/{id}/warnings: what the owner was told about this canary, newest first — each grace
 * reminder, re-warning and miss, with every channel it was tried on. `delivered_at` null: no channel has
 * accepted it yet (it is tried again, and no miss counts meanwhile).
 */
export const ZCanaryWarning = z.object({
  id: z.string(),
  kind: z.enum(CANARY_NOTICE_KINDS),
  subject: z.string(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  deliveries: z.array(ZWarningDelivery),
});
export type TCanaryWarning = z.infer<typeof ZCanaryWarning>;
export const ZCanaryWarnings = z.object({ warnings: z.array(ZCanaryWarning) });
export type TCanaryWarnings = z.infer<typeof ZCanaryWarnings>;
