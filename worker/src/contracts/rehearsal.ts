import { z } from 'zod';

/**
 * A rehearsal ("Test everything", docs/decisions/rehearsal.md): the engine's plan of what would happen if the owner
 * stopped checking in now, and what each TEST copy reached. One schema per input and output of docs/api.md "Rehearsal".
 */
export const ZRehearsalInput = z.object({
  /** Also send each recipient a TEST notice: "this is a rehearsal; nothing was released". */
  notify_recipients: z.boolean().optional(),
  /** Also send each active guardian a TEST notice saying the same. */
  notify_guardians: z.boolean().optional(),
});
export type TRehearsalInput = z.infer<typeof ZRehearsalInput>;

/** One try of a TEST copy on one address, or a channel the owner chose that has nowhere to go. */
export const ZRehearsalReach = z.object({
  channel: z.enum(['email', 'sms', 'push', 'in_app']),
  /** Masked address ("o•••@example.com", "•••• 0142", "device at fcm.googleapis.com"); null for a gap. */
  address: z.string().nullable(),
  ok: z.boolean(),
  /** What the channel answered, or why nothing could be sent ("no verified phone"). */
  note: z.string(),
});
export type TRehearsalReach = z.infer<typeof ZRehearsalReach>;

export const REHEARSAL_STEP_KINDS = [
  'warning',
  'miss',
  'guardians_asked',
  'veto_window_ends',
  'message_armed',
  'message_released',
  'vault_released',
  'webhook',
  'deletion_scheduled',
  'account_deleted',
] as const;

export const ZRehearsalStep = z.object({
  /** When, as an ISO 8601 instant (UTC). */
  at: z.string(),
  kind: z.enum(REHEARSAL_STEP_KINDS),
  title: z.string(),
  detail: z.string(),
  /** Only if your guardians reported your death when asked (the veto window and what waits for a confirmed death). */
  conditional: z.boolean(),
  canary_id: z.string().nullable(),
  message_id: z.string().nullable(),
  webhook_id: z.string().nullable(),
  /** The miss count a `miss` or `webhook` step carries. */
  misses: z.number().int().nullable(),
  /** What the TEST copy of this step reached (warnings and notices); empty for a step nobody is told of. */
  reached: z.array(ZRehearsalReach),
  /** Problems found: a channel that would not reach you, a quiet-hours delay. */
  gaps: z.array(z.string()),
});
export type TRehearsalStep = z.infer<typeof ZRehearsalStep>;

export const ZRehearsal = z.object({
  id: z.string(),
  created_at: z.string(),
  status: z.enum(['planning', 'done']),
  notify_recipients: z.boolean(),
  notify_guardians: z.boolean(),
  steps: z.array(ZRehearsalStep),
  /** Every gap of every step, once, plus those of the account (no canary, no channel accepted anything). */
  gaps: z.array(z.string()),
  /** TEST notices sent to recipients and guardians who were opted in. */
  others_told: z.array(z.object({ who: z.enum(['recipient', 'guardian']), address: z.string(), ok: z.boolean(), note: z.string() })),
});
export type TRehearsal = z.infer<typeof ZRehearsal>;

export const ZRehearsalList = z.object({ rehearsals: z.array(ZRehearsal) });
export type TRehearsalList = z.infer<typeof ZRehearsalList>;

/** One rehearsal per this many minutes per account: TEST copies go to real channels. */
export const REHEARSAL_COOLDOWN_MINUTES = 10;
