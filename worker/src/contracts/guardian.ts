import { z } from 'zod';
import { ZEmail } from './auth';
import { ZIdempotencyKey } from './idempotency';

/**
 * Guardians and the ladder to a confirmed death (docs/server-rules.md "Guardians and death confirmation";
 * docs/decisions/guardian-ladder.md). Owner side: /api/guardian/assign, list, {id}, settings, ladder.
 * Guardian side: accept / decline by invitation token, owners (the people who chose me), {id}/answer,
 * {id}/resign. The death report of an executor's system: /api/death-verification/report.
 */

/** Invited or active guardians one owner may have at once. */
export const MAX_GUARDIANS = 5;
/** Invitations one owner may send per rolling 24 hours (revoke and re-invite is not a mailing list). */
export const MAX_INVITATIONS_PER_DAY = 20;
export const VETO_WINDOW_MIN_HOURS = 24;
export const VETO_WINDOW_MAX_HOURS = 720;
export const DEFAULT_GUARDIAN_SETTINGS = { quorum: 1, veto_window_hours: 72, ask_after_misses: 1 } as const;
/** A hold is 1 to 30 days, and all holds of one episode (until the owner checks in) end within 30 days of the first. */
export const MAX_HOLD_DAYS = 30;

export const GUARDIAN_STATUSES = ['invited', 'active', 'declined', 'revoked', 'resigned'] as const;
export type GuardianStatus = (typeof GUARDIAN_STATUSES)[number];
/** Invited or accepted: what counts toward the limit and the quorum, and what the owner can still revoke. */
export const LIVE_GUARDIAN_STATUSES = ['invited', 'active'] as const satisfies readonly GuardianStatus[];
export const isLiveGuardian = (status: GuardianStatus) => (LIVE_GUARDIAN_STATUSES as readonly GuardianStatus[]).includes(status);

/** POST /api/guardian/assign (docs/product.md "Guardians": email, consent). */
export const ZAssignGuardianInput = z.object({
  email: ZEmail,
  consent: z.literal(true, { message: 'consent must be true: confirm that this person agreed to be asked about you' }),
  /** Optional: sent again with the same key and input, the call answers with the invitation its first try wrote. */
  idempotency_key: ZIdempotencyKey,
});
export type TAssignGuardianInput = z.output<typeof ZAssignGuardianInput>;

/** A guardian as its owner sees it. */
export const ZGuardianView = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(GUARDIAN_STATUSES),
  /** The account's display name once accepted (null before). */
  name: z.string().nullable(),
  invited_at: z.string(),
  responded_at: z.string().nullable(),
  ended_at: z.string().nullable(),
});
export type TGuardianView = z.output<typeof ZGuardianView>;

/** The invitation link's token (`/guardian/accept/{token}`): 256 bits, base64url. */
export const ZInvitationToken = z.object({
  token: z.string({ message: 'token is required' }).trim().min(1, { message: 'token is required' }).max(100, { message: 'token is not an invitation token' }),
});

const settingsFields = {
  quorum: z
    .number({ message: 'quorum must be a whole number' })
    .int({ message: 'quorum must be a whole number' })
    .min(1, { message: 'quorum must be at least 1' })
    .max(MAX_GUARDIANS, { message: `quorum must be at most ${MAX_GUARDIANS}` }),
  veto_window_hours: z
    .number({ message: 'veto_window_hours must be a whole number of hours' })
    .int({ message: 'veto_window_hours must be a whole number of hours' })
    .min(VETO_WINDOW_MIN_HOURS, { message: `veto_window_hours must be at least ${VETO_WINDOW_MIN_HOURS} (24 hours)` })
    .max(VETO_WINDOW_MAX_HOURS, { message: `veto_window_hours must be at most ${VETO_WINDOW_MAX_HOURS} (30 days)` }),
  ask_after_misses: z
    .number({ message: 'ask_after_misses must be a whole number' })
    .int({ message: 'ask_after_misses must be a whole number' })
    .min(1, { message: 'ask_after_misses must be at least 1' })
    .max(100, { message: 'ask_after_misses must be at most 100' }),
};
/** GET /api/guardian/settings. */
export const ZGuardianSettings = z.object(settingsFields);
export type TGuardianSettings = z.output<typeof ZGuardianSettings>;
/** PUT /api/guardian/settings: any subset; the rest keeps its value. */
export const ZUpdateGuardianSettingsInput = z
  .object({
    quorum: settingsFields.quorum.optional(),
    veto_window_hours: settingsFields.veto_window_hours.optional(),
    ask_after_misses: settingsFields.ask_after_misses.optional(),
  })
  .strict();
export type TUpdateGuardianSettingsInput = z.output<typeof ZUpdateGuardianSettingsInput>;

/** A guardian's answer to "Have you heard from {name}?". */
export const GUARDIAN_ANSWERS = ['fine', 'hold', 'report_death'] as const;
export const ZGuardianAnswerInput = z.discriminatedUnion(
  'answer',
  [
    z.object({ answer: z.literal('fine') }),
    z.object({
      answer: z.literal('hold'),
      days: z
        .number({ message: 'days must be a whole number of days' })
        .int({ message: 'days must be a whole number of days' })
        .min(1, { message: 'days must be at least 1' })
        .max(MAX_HOLD_DAYS, { message: `days must be at most ${MAX_HOLD_DAYS}` }),
    }),
    z.object({ answer: z.literal('report_death') }),
  ],
  { message: `answer must be one of ${GUARDIAN_ANSWERS.join(', ')}` },
);
export type TGuardianAnswerInput = z.output<typeof ZGuardianAnswerInput>;
/**
 * The body as the transport reads it: any object. The answer is checked against ZGuardianAnswerInput
 * only after the guardianship is found to be the caller's, so a stranger's id is a 404 whatever the body
 * (nothing tells an outsider which ids exist) — the attachments' key parameter does the same.
 */
export const ZGuardianAnswerBody = z.object({
  answer: z
    .unknown()
    .optional()
    .describe(`one of ${GUARDIAN_ANSWERS.join(', ')}`),
  days: z.unknown().optional().describe('with hold: 1 to 30'),
});

/** POST /api/death-verification/report: an optional note from the executor's system (kept on the transition). */
export const ZDeathReportInput = z.object({
  note: z.string({ message: 'note must be text' }).trim().max(500, { message: 'note must be at most 500 characters' }).optional(),
});

export const LADDER_STAGES = ['no_guardians', 'watching', 'missed', 'reported', 'veto_window', 'on_hold', 'confirmed'] as const;
export type LadderStage = (typeof LADDER_STAGES)[number];

export const ZDeathReportView = z.object({
  id: z.string(),
  status: z.enum(['open', 'confirmed', 'refuted']),
  sandbox: z.boolean(),
  opened_at: z.string(),
  /** Distinct active guardians (and keys) that reported. */
  votes: z.number().int(),
  quorum: z.number().int(),
  window_opened_at: z.string().nullable(),
  window_ends_at: z.string().nullable(),
  halfway_at: z.string().nullable(),
  closed_at: z.string().nullable(),
});
export type TDeathReportView = z.output<typeof ZDeathReportView>;

export const ZLadderTransitionView = z.object({
  at: z.string(),
  kind: z.string(),
  actor: z.string().describe('system, owner, guardian:<id> or key:<id>'),
  cause: z.string(),
  detail: z.string().nullable(),
  report_id: z.string().nullable(),
});

/** GET /api/guardian/ladder: where the owner's ladder stands and what happens next (the dashboard reads it too). */
export const ZLadderView = z.object({
  stage: z.enum(LADDER_STAGES),
  settings: ZGuardianSettings,
  guardians: z.object({ active: z.number().int(), invited: z.number().int() }),
  missed: z.boolean().describe('a canary of the owner is past its deadline'),
  report: ZDeathReportView.nullable().describe('the open report, else the latest one'),
  sandbox_report: ZDeathReportView.nullable().describe('the open report of a sandbox key, if any'),
  hold_until: z.string().nullable(),
  death_confirmed_at: z.string().nullable(),
  /** What a confirmation would set going: open messages with a delay-after-death rule, and their distinct recipients. */
  /** Open messages and vault items waiting for a confirmed death, and their distinct recipients. */
  would_release: z.object({ messages: z.number().int(), vault_items: z.number().int(), people: z.number().int() }),
  next: z.object({ at: z.string(), what: z.enum(['veto_halfway', 'death_confirmed', 'hold_ends']) }).nullable(),
  summary: z.string(),
  transitions: z.array(ZLadderTransitionView),
});
export type TLadderView = z.output<typeof ZLadderView>;

/** GET /api/guardian/owners: a person who chose the caller, with their ladder state (never messages or vault). */
export const ZGuardedOwnerView = z.object({
  id: z.string().describe('the guardianship id: answer and resign with it'),
  owner_name: z.string(),
  owner_email: z.string(),
  since: z.string().nullable(),
  missed: z.boolean(),
  stage: z.enum(LADDER_STAGES),
  report: ZDeathReportView.nullable(),
  hold_until: z.string().nullable(),
  death_confirmed_at: z.string().nullable(),
  my_answers: z.array(z.object({ at: z.string(), kind: z.string() })),
});
export type TGuardedOwnerView = z.output<typeof ZGuardedOwnerView>;

/** What a guardian's answer or a key's report did. */
export const ZLadderAnswerResult = z.object({
  recorded: z.string().describe('guardian_fine, hold, death_reported, or already_reported'),
  stage: z.enum(LADDER_STAGES),
  report: ZDeathReportView.nullable(),
  hold_until: z.string().nullable(),
});
export type TLadderAnswerResult = z.output<typeof ZLadderAnswerResult>;

/** The answer of POST /api/death-verification/report. */
export const ZDeathReportResult = z.object({
  recorded: z.enum(['death_reported', 'already_reported']),
  sandbox: z.boolean(),
  report: ZDeathReportView,
});
export type TDeathReportResult = z.output<typeof ZDeathReportResult>;

/** What accepting, declining or resigning answers: the guardianship's new status. */
export const ZInvitationAnswer = z.object({
  id: z.string().describe('the guardianship id'),
  status: z.enum(['active', 'declined', 'resigned']),
  owner_name: z.string(),
});
export type TInvitationAnswer = z.output<typeof ZInvitationAnswer>;
