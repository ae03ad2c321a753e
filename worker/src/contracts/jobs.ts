import { CANARY_NOTICE_KINDS, CANARY_TRANSITION_KINDS, REMINDER_DELIVERY_STATUSES, TRANSITION_RECORDERS } from '@afterword/db/enums';
import { z } from 'zod';
import { CHECK_IN_SOURCES } from './canary';

/**
 * The bodies of queue messages (DELIVERIES and JOBS), one schema each. The consumer
 * (queues/consume.ts) parses every body with ZQueueJob before a handler sees it; the producers build
 * them through the types below, so both ends agree by construction.
 */
export const ZMissedCheckinsEvent = z.object({
  type: z.literal('missed_checkins'),
  /** The transition's id: consumers deduplicate on it. */
  event_id: z.string().min(1),
  user_id: z.string().min(1),
  canary_id: z.string().min(1),
  misses: z.number().int().min(1),
  deadline: z.string(),
  fired_at: z.string(),
});
export type MissedCheckinsEvent = z.infer<typeof ZMissedCheckinsEvent>;

/**
 * One check-in a canary's Durable Object accepted, on its way into D1 (PROJECTIONS queue). The object is
 * the record; this is the projection, applied idempotently (domains/canary/check-in-projection.ts).
 */
export const ZCheckInProjection = z.object({
  type: z.literal('canary_check_in'),
  /** Also the id of the check-in's activity row: applying it twice writes one row. */
  event_id: z.string().uuid(),
  canary_id: z.string().uuid(),
  /** The check-in's own time (ms): what it changes is decided by it, not by when it is applied. */
  at: z.number().int().nonnegative(),
  source: z.enum(CHECK_IN_SOURCES),
  /**
   * The object's next wake after this check-in, as its answer gave it (the Worker's send only): D1's copy of
   * the timer moves with `last_check_in` in the same row write, so D1 holds where the object's alarm now is
   * (docs/decisions/canary-engine.md "A check-in moves the timer") and the reconciler's scan finds nothing overdue.
   */
  timer_due_at: z.number().int().optional(),
});
export type CheckInProjection = z.infer<typeof ZCheckInProjection>;

/** A check-in as its canary's object holds it (the canary is the object's): its own time and where it came from. */
export const ZClockCheckIn = ZCheckInProjection.omit({ type: true, canary_id: true, timer_due_at: true });
export type ClockCheckIn = z.infer<typeof ZClockCheckIn>;

/** A timer event a canary's object recorded (its row in D1's canary_transitions; times in ms). */
export const ZTransitionRow = z.object({
  id: z.string().uuid(),
  canary_id: z.string().uuid(),
  user_id: z.string().min(1),
  cycle_deadline: z.number().int(),
  kind: z.enum(CANARY_TRANSITION_KINDS),
  misses: z.number().int().nonnegative(),
  due_at: z.number().int(),
  fired_at: z.number().int(),
  counts_from: z.number().int().nullable(),
  emitted_at: z.number().int().nullable(),
  delivery_channel: z.string().nullable(),
  delivery_status: z.enum(REMINDER_DELIVERY_STATUSES).nullable(),
  delivered_at: z.number().int().nullable(),
  recorded_by: z.enum(TRANSITION_RECORDERS),
});
export type TransitionRow = z.infer<typeof ZTransitionRow>;

/** An activity-feed row a wake wrote (projected into D1's `activity`). */
export const ZWakeActivity = z.object({
  id: z.string().uuid(),
  user_id: z.string().min(1),
  canary_id: z.string().uuid(),
  kind: z.enum(['grace_reminder', 'late_rewarn', 'missed_checkin']),
  source: z.literal('system'),
  summary: z.string(),
  created_at: z.number().int(),
});
export type WakeActivity = z.infer<typeof ZWakeActivity>;

/**
 * What one wake of a canary's object recorded, on its way into D1 (PROJECTIONS queue): timer events
 * (inserted once by their unique key; an emission mark only fills an empty `emitted_at`), activity rows
 * (once, by id) and, when the wake armed the timer, its next instant.
 */
export const ZWakeProjection = z.object({
  type: z.literal('canary_wake'),
  canary_id: z.string().uuid(),
  transitions: z.array(ZTransitionRow),
  activities: z.array(ZWakeActivity),
  timer_due_at: z.number().int().optional(),
  /**
   * Check-ins the object recorded and had not queued itself: the Worker that answered them normally
   * sent them already (domains/canary/check-in-sender.ts); written again, idempotently, so one it never
   * sent still gets there, at no extra message.
   */
  check_ins: z.array(ZClockCheckIn).optional(),
});
export type WakeProjection = z.infer<typeof ZWakeProjection>;

/** Everything the PROJECTIONS queue carries. */
export const ZProjection = z.discriminatedUnion('type', [ZCheckInProjection, ZWakeProjection]);
export type Projection = z.infer<typeof ZProjection>;

/** One delivery of one message on one channel (release engine). */
export const ZDeliverJob = z.object({ type: z.literal('deliver'), delivery_id: z.string().min(1) });
export type DeliverJob = z.infer<typeof ZDeliverJob>;

/** One notice to a message's owner (armed, released, failed…). */
export const ZOwnerNoticeJob = z.object({ type: z.literal('owner_notice'), notice_id: z.string().min(1) });
export type OwnerNoticeJob = z.infer<typeof ZOwnerNoticeJob>;

/**
 * What a canary's object tells its owner (docs/decisions/canary-engine.md, "Warnings on the owner's
 * channels"): the grace-entry reminder and the re-warning — warnings, whose delivery the object waits for
 * before any miss counts — and the miss itself. The notice's id is the timer event's id, so a job sent
 * twice (the object re-sends an undelivered warning with backoff) tells the owner once.
 */
export const ZCanaryNoticeJob = z.object({
  type: z.literal('canary_notice'),
  transition_id: z.string().uuid(),
  kind: z.enum(CANARY_NOTICE_KINDS),
  canary_id: z.string().uuid(),
  user_id: z.string().min(1),
  canary_name: z.string(),
  interval_seconds: z.number().int().positive(),
  /** The canary's grace period (ms): a calendar schedule states its own; absent (jobs from before), 20 % of the interval. */
  grace_ms: z.number().int().positive().optional(),
  /** The end of the canary's vacation pause (ms), for the pause-ending notice. */
  paused_until: z.number().int().optional(),
  /** The cycle's deadline (ms). */
  cycle_deadline: z.number().int(),
  /** When the object recorded the event (ms). */
  recorded_at: z.number().int(),
});
export type CanaryNoticeJob = z.infer<typeof ZCanaryNoticeJob>;

/** One attempt of one webhook delivery. */
export const ZWebhookJob = z.object({ type: z.literal('webhook'), delivery_id: z.string().min(1) });
export type WebhookJob = z.infer<typeof ZWebhookJob>;

/** One notice to one guardian (an invitation, "Have you heard from …?", a refutation, a confirmation). */
export const ZGuardianNoticeJob = z.object({ type: z.literal('guardian_notice'), notice_id: z.string().min(1) });
export type GuardianNoticeJob = z.infer<typeof ZGuardianNoticeJob>;

/** What follows a confirmed death (the flag is already set): fire death-triggered releases, send the webhook. */
export const ZDeathConfirmedJob = z.object({ type: z.literal('death_confirmed'), report_id: z.string().min(1) });
export type DeathConfirmedJob = z.infer<typeof ZDeathConfirmedJob>;

/** Rewrite a user's files in the storage class their account's state calls for (the inactivity policy's archive). */
export const ZStorageClassJob = z.object({ type: z.literal('storage_class'), user_id: z.string().min(1), after: z.string().optional() });
export type StorageClassJob = z.infer<typeof ZStorageClassJob>;

/** Build one copy of an account's chosen parts for one heir before a dead-man deletion (domains/legacy/). */
export const ZLegacyCopyJob = z.object({ type: z.literal('legacy_copy'), copy_id: z.string().min(1) });
export type LegacyCopyJob = z.infer<typeof ZLegacyCopyJob>;
/**
 * One contact invitation email. The token rides in the job (the table keeps only its hash): a lost job
 * leaves the invitation unsent, and the inviter removes and adds the address again.
 */
export const ZContactInvitationJob = z.object({ type: z.literal('contact_invitation'), contact_id: z.string().min(1), token: z.string().min(1) });
export type ContactInvitationJob = z.infer<typeof ZContactInvitationJob>;

/** Build one owner's voice profile for one training attempt (domains/voice/train-profile.ts). */
export const ZVoiceTrainingJob = z.object({ type: z.literal('voice_training'), user_id: z.string().min(1), attempt_id: z.string().min(1) });
export type VoiceTrainingJob = z.infer<typeof ZVoiceTrainingJob>;

/** Delete one voice cloned at the voice provider (domains/voice/cloned-voice.ts), retried until it answers. */
export const ZClonedVoiceDeleteJob = z.object({ type: z.literal('cloned_voice_delete'), voice_id: z.string().min(1) });
export type ClonedVoiceDeleteJob = z.infer<typeof ZClonedVoiceDeleteJob>;

/** Read one uploaded chat export and store the owner's lines (domains/chat-import/run-import.ts). */
export const ZChatImportJob = z.object({ type: z.literal('chat_import'), import_id: z.string().min(1) });
export type ChatImportJob = z.infer<typeof ZChatImportJob>;

/** Stop a deleted canary's object, when stopping it at the deletion failed (domains/canary/canary-timer.ts). */
export const ZCanaryStopJob = z.object({ type: z.literal('canary_stop'), canary_id: z.string().min(1) });
export type CanaryStopJob = z.infer<typeof ZCanaryStopJob>;

/**
 * Tell a canary's object of a Heartbeat check-in D1 already has, when telling it at the check-in failed
 * (domains/canary/canary-timer.ts `noteCheckIn`): retried until the object answers.
 */
export const ZCanaryNoteCheckInJob = z.object({ type: z.literal('canary_note_check_in'), canary_id: z.string().uuid(), entry: ZClockCheckIn });
export type CanaryNoteCheckInJob = z.infer<typeof ZCanaryNoteCheckInJob>;

export const ZQueueJob = z.discriminatedUnion('type', [
  ZMissedCheckinsEvent,
  ZDeliverJob,
  ZOwnerNoticeJob,
  ZCanaryNoticeJob,
  ZWebhookJob,
  ZGuardianNoticeJob,
  ZDeathConfirmedJob,
  ZStorageClassJob,
  ZLegacyCopyJob,
  ZContactInvitationJob,
  ZVoiceTrainingJob,
  ZChatImportJob,
  ZClonedVoiceDeleteJob,
  ZCanaryStopJob,
  ZCanaryNoteCheckInJob,
]);
export type QueueJob = z.infer<typeof ZQueueJob>;
