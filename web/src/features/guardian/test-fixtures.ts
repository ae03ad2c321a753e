/*
 * Personas: Ada owns an account and chose guardians; Sam is one of them. On Ada's Guardian page Sam is a
 * `guardian()`; on Sam's page Ada is a `guardedOwner()`, someone who chose him.
 */
import type { GuardedOwner, Guardian, GuardianSettings, LadderView } from './types';

export const SAM_ID = 'g-sam';
/** Sam's guardianship of Ada: the id he answers and resigns with. */
export const GUARDIANSHIP_ID = 'g-sam-for-ada';

export const guardian = (over: Partial<Guardian> = {}): Guardian => ({
  id: SAM_ID,
  email: 'sam@example.com',
  status: 'invited',
  name: null,
  invited_at: '2026-05-14T10:00:00Z',
  responded_at: null,
  ended_at: null,
  ...over,
});

export const guardedOwner = (over: Partial<GuardedOwner> = {}): GuardedOwner => ({
  id: GUARDIANSHIP_ID,
  owner_name: 'Ada',
  owner_email: 'ada@example.com',
  since: '2026-05-14T10:00:00Z',
  missed: false,
  stage: 'watching',
  report: null,
  hold_until: null,
  death_confirmed_at: null,
  my_answers: [],
  ...over,
});

export const settings = (over: Partial<GuardianSettings> = {}): GuardianSettings => ({ quorum: 1, veto_window_hours: 72, ask_after_misses: 1, ...over });

export const ladder = (over: Partial<LadderView> = {}): LadderView => ({
  stage: 'watching',
  settings: settings(),
  guardians: { active: 1, invited: 0 },
  missed: false,
  report: null,
  sandbox_report: null,
  hold_until: null,
  death_confirmed_at: null,
  would_release: { messages: 3, vault_items: 0, people: 2 },
  next: null,
  summary: '1 guardian watches over you. They are asked about you after 1 missed check-in.',
  transitions: [],
  ...over,
});

export const VETO_SUMMARY =
  'Your death was reported. If nobody refutes it by Thu, 14 May 2026, 09:00 UTC (any check-in does), it will be confirmed and 3 messages to 2 people will start on their way.';

/** Sam reported Ada's death and the quorum of 1 was met: the veto window is open. */
export const openWindowLadder = (over: Partial<LadderView> = {}): LadderView =>
  ladder({
    stage: 'veto_window',
    missed: true,
    report: {
      id: 'r1',
      status: 'open',
      sandbox: false,
      opened_at: '2026-05-11T09:00:00Z',
      votes: 1,
      quorum: 1,
      window_opened_at: '2026-05-11T09:00:00Z',
      window_ends_at: '2026-05-14T09:00:00Z',
      halfway_at: '2026-05-12T21:00:00Z',
      closed_at: null,
    },
    next: { at: '2026-05-12T21:00:00Z', what: 'veto_halfway' },
    summary: VETO_SUMMARY,
    transitions: [
      { at: '2026-05-11T09:00:00Z', kind: 'veto_opened', actor: 'system', cause: 'quorum_reached', detail: 'ends 2026-05-14 09:00:00 UTC', report_id: 'r1' },
      { at: '2026-05-11T09:00:00Z', kind: 'death_reported', actor: `guardian:${SAM_ID}`, cause: 'guardian_report', detail: null, report_id: 'r1' },
      { at: '2026-05-10T09:00:00Z', kind: 'guardians_asked', actor: 'system', cause: 'missed_checkins', detail: null, report_id: null },
    ],
    ...over,
  });
