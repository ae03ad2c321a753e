import { humanTime } from '../../lib/human-time';
import { deadmanDeletionDate } from '../deadman/process-deadman';
import type { PlannedStep } from './plan-rehearsal';

/** The dead-man's switch as a rehearsal sees it: its deadline, and a deletion it already scheduled. */
export interface DeadmanFacts {
  hours: number;
  deadline: number;
  /** The date of the deletion the switch already scheduled (its deadline passed), if any. */
  scheduledDeletionAt: number | null;
  /** People who get a copy before the erasure (domains/legacy/). */
  heirs: number;
}

/**
 * The dead-man's switch in a rehearsal: with no check-in from `now`, the every-minute cron schedules the
 * account's deletion when the deadline passes, for the date `deadmanDeletionDate` gives (the engine's own
 * rule, domains/deadman/process-deadman.ts), and erases the account then — a day after its warning reached the
 * owner (planned as reaching them at once), once every release due by then is delivered and every heir's copy made.
 */
export function planDeadman(deadman: DeadmanFacts | null, now: number): PlannedStep[] {
  if (!deadman) return [];
  const base = { conditional: false, canary_id: null, message_id: null, webhook_id: null, misses: null };
  const steps: PlannedStep[] = [];
  let deletionAt = deadman.scheduledDeletionAt;
  if (deletionAt == null) {
    deletionAt = deadmanDeletionDate(deadman.deadline, now);
    steps.push({
      ...base,
      at: Math.max(deadman.deadline, now),
      kind: 'deletion_scheduled',
      title: `No check-in for ${deadman.hours} hours: your account's deletion is scheduled`,
      detail: `For ${humanTime(deletionAt)}, a day after the warning we send on every channel reaches you. It is listed under Legal, and any check-in before then cancels it.`,
    });
  }
  const copies = deadman.heirs === 0 ? '' : ` First each of your ${deadman.heirs === 1 ? 'heir gets' : `${deadman.heirs} heirs get`} their copy.`;
  steps.push({
    ...base,
    at: deletionAt,
    kind: 'account_deleted',
    title: 'Your account is deleted',
    detail: `Everything of yours is erased, once every message released by then has been delivered.${copies}`,
  });
  return steps;
}
