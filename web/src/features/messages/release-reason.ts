import type { ReceivedMessage, ReleaseReason } from '@afterword/worker/contracts/messages';

/** Who left a received message, as a person would say it: their name, else their email. */
export const fromLabel = (m: Pick<ReceivedMessage, 'sender'>) => m.sender.name?.trim() || m.sender.email;

/** Name and email when both are known ("Ann (ann@example.com)"), else the email. */
export const fromFull = (m: Pick<ReceivedMessage, 'sender'>) => (m.sender.name?.trim() ? `${m.sender.name.trim()} (${m.sender.email})` : m.sender.email);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Why it reached the recipient, in one sentence ("Released because Ann missed 3 check-ins."). */
export function releaseReasonText(reason: ReleaseReason, from: string): string {
  switch (reason.kind) {
    case 'missed_checkins':
      return reason.count ? `Released because ${from} missed ${plural(reason.count, 'check-in')}.` : `Released because ${from} missed their check-ins.`;
    case 'fixed_date':
      return `Released on the date ${from} chose.`;
    case 'delay_after_death':
      return reason.count
        ? `Released ${plural(reason.count, 'day')} after ${from}'s death was confirmed, as they asked.`
        : `Released when ${from}'s death was confirmed, as they asked.`;
    case 'recipient_birthday':
      return `Released on your birthday, as ${from} asked.`;
    case 'deliver_at':
      return `Released at the time ${from} chose.`;
    case 'by_sender':
      return `${from} chose to release it to you now.`;
  }
}
