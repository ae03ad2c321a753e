import { canaryLabel } from '../../contracts/canary';
import { graceMs } from '../../contracts/canary-health';
import type { CanaryNoticeJob } from '../../contracts/jobs';
import { humanTime } from '../../lib/human-time';

/** What a canary's miss would set going for its owner: read when a notice is written, so its words are true. */
export interface Stakes {
  /** The owner's messages still waiting for a rule to fire (some may have a missed-check-in rule). */
  messagesWaiting: number;
  guardians: number;
}

/** "12 minutes", "4.8 hours", "1.2 days". */
export function durationWords(ms: number): string {
  const round = (n: number) => Math.round(n * 10) / 10;
  if (ms < 120_000) return `${Math.round(ms / 1000)} seconds`;
  if (ms < 2 * 3600_000) return `${round(ms / 60_000)} minutes`;
  if (ms < 2 * 86_400_000) return `${round(ms / 3600_000)} hours`;
  return `${round(ms / 86_400_000)} days`;
}

function stakesSentence(stakes: Stakes): string {
  const parts: string[] = [];
  if (stakes.messagesWaiting)
    parts.push(`${stakes.messagesWaiting} ${stakes.messagesWaiting === 1 ? 'message of yours waits' : 'messages of yours wait'} for a rule`);
  if (stakes.guardians)
    parts.push(`${stakes.guardians === 1 ? 'your guardian' : `your ${stakes.guardians} guardians`} may be asked whether they have heard from you`);
  if (!parts.length) return 'Nothing of yours is set to be released by a missed check-in.';
  return `While you do not check in, ${parts.join(', and ')}.`;
}

/**
 * The words of each canary notice, by kind: each says what state the canary is in, what happens next and
 * when, and how to check in (one tap on Canary Status: a link never checks in by itself, so a mail
 * scanner following it changes nothing). Times are in the owner's time zone.
 */
export function canaryNoticeText(job: CanaryNoticeJob, stakes: Stakes, link: string, timeZone: string): { subject: string; text: string } {
  const label = canaryLabel(job.canary_name);
  const deadline = humanTime(job.cycle_deadline, timeZone);
  const grace = durationWords(job.grace_ms ?? graceMs(job.interval_seconds));
  const checkIn = `Check in with one tap: ${link}`;
  switch (job.kind) {
    case 'grace_reminder':
      return {
        subject: `Check in before ${deadline}: "${label}"`,
        text: [
          `Your canary "${label}" is in its grace period: check in before ${deadline}.`,
          `If you miss it, nothing is released before ${grace} after this reminder reached you. ${stakesSentence(stakes)}`,
          checkIn,
        ].join('\n\n'),
      };
    case 'late_rewarn':
      return {
        subject: `Your canary "${label}" passed its deadline — check in`,
        text: [
          `Your canary "${label}" passed its deadline (${deadline}) before a reminder could reach you.`,
          `Nothing is released until ${grace} after this warning reached you. ${stakesSentence(stakes)}`,
          checkIn,
        ].join('\n\n'),
      };
    case 'pause_ending':
      return {
        subject: `Your vacation pause of "${label}" ends ${humanTime(job.paused_until ?? job.recorded_at, timeZone)}`,
        text: [
          `The vacation pause of your canary "${label}" ends ${humanTime(job.paused_until ?? job.recorded_at, timeZone)}.`,
          `From then on it counts again: its next deadline is ${deadline}. ${stakesSentence(stakes)}`,
          `You can check in or pause again on Canary Status: ${link}`,
        ].join('\n\n'),
      };
    case 'missed':
      return {
        subject: `Missed check-in: "${label}"`,
        text: [
          `Your canary "${label}" missed its check-in, due ${deadline}. Its missed-check-in rules now count.`,
          `${stakesSentence(stakes)} Messages armed by it are released when their cancel window ends, unless you check in first; you are told of each.`,
          checkIn,
        ].join('\n\n'),
      };
  }
}
