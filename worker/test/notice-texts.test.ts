import { describe, expect, it } from 'vitest';
import { canaryNoticeText } from '../src/domains/canary/canary-notice-texts';
import { armedNotice, failedNotice, RELEASE_REASONS, releasedNotice } from '../src/domains/messages/notices/message-notice-texts';
import type { CanaryNoticeJob } from '../src/contracts/jobs';
import { nameWithEmail } from '../src/lib/person-label';

/**
 * One table of the owner's notice texts, by state and kind: each says the state its subject is in, and
 * none says a state it is not in (the armed notice said "It is released now", the released one "Armed with
 * no cancel window", a vault file's notice "Your message").
 */
const T0 = Date.UTC(2026, 10, 27, 14, 0);
const LINK = 'https://afterword.example/app/canary-status';
const message = { vault: false, recipient: 'Rob' };
const vault = { vault: true, recipient: 'Rob' };

const canaryJob = (kind: CanaryNoticeJob['kind']): CanaryNoticeJob => ({
  type: 'canary_notice',
  transition_id: crypto.randomUUID(),
  kind,
  canary_id: crypto.randomUUID(),
  user_id: 'u',
  canary_name: 'Daily',
  interval_seconds: 86_400,
  cycle_deadline: T0,
  recorded_at: T0,
});
const stakes = { messagesWaiting: 2, guardians: 1 };

const table: { state: string; notice: { subject: string; text: string }; says: RegExp[]; never: RegExp[] }[] = [
  {
    state: 'message armed, with a cancel window',
    notice: armedNotice(message, 'after 1 missed check-in', '1 missed check-in', T0 + 86_400_000, T0, true, LINK),
    says: [
      /^Your message to Rob will be released at Sat, 28 Nov 2026, 14:00 UTC unless you check in$/,
      /^Armed: /,
      /unless you check in before then/,
      /canary-status/,
    ],
    never: [/released now/i, /vault/i],
  },
  {
    state: 'message armed, no window, its delivery time later',
    notice: armedNotice(message, 'after 1 missed check-in', '1 missed check-in', T0 + 3600_000, T0, false, LINK),
    says: [/is armed: released at Fri, 27 Nov 2026, 15:00 UTC/, /no cancel window/],
    never: [/released now/i, /unless you check in/],
  },
  {
    state: 'message armed, no window, going now',
    notice: armedNotice(message, 'after 1 missed check-in', '1 missed check-in', T0, T0, false, LINK),
    says: [/is armed and goes out now/, /being released now/],
    never: [/was released/, /unless you check in/],
  },
  {
    state: 'vault file armed',
    notice: armedNotice(vault, 'on a date', 'the date came', T0, T0, false, LINK),
    says: [/^Your vault file to Rob/],
    never: [/Your message/],
  },
  {
    state: 'message released at the end of its window',
    notice: releasedNotice(message, RELEASE_REASONS.windowEnded, 'email'),
    says: [/^Your message to Rob was released$/, /^Released: Its cancel window ended without a check-in\./, /delivered by email/],
    never: [/Armed/i, /will be released/],
  },
  {
    state: 'message released with no window',
    notice: releasedNotice(message, RELEASE_REASONS.noWindow, 'sms'),
    says: [/^Released: Its rule fired and it had no cancel window\./],
    never: [/^Armed/, /will be released/],
  },
  {
    state: 'vault file released',
    notice: releasedNotice(vault, RELEASE_REASONS.noWindow, 'email'),
    says: [/^Your vault file to Rob was released$/],
    never: [/Your message/],
  },
  {
    state: 'message failed',
    notice: failedNotice(message, 'email after 6 attempts: mailbox full'),
    says: [/could not be delivered$/, /^Not delivered: email after 6 attempts/, /still in Rob's Afterword inbox/],
    never: [/was released/],
  },
  {
    state: 'canary in grace',
    notice: canaryNoticeText(canaryJob('grace_reminder'), stakes, LINK, 'UTC'),
    says: [
      /^Check in before Fri, 27 Nov 2026, 14:00 UTC: "Daily"$/,
      /is in its grace period/,
      /2 messages of yours wait for a rule/,
      /your guardian may be asked/,
      /canary-status/,
    ],
    never: [/missed its check-in/, /passed its deadline/],
  },
  {
    state: 'canary past its deadline, not yet warned',
    notice: canaryNoticeText(canaryJob('late_rewarn'), stakes, LINK, 'UTC'),
    says: [/passed its deadline — check in$/, /Nothing is released until 4.8 hours after this warning reached you/],
    never: [/is in its grace period/],
  },
  {
    state: 'canary missed',
    notice: canaryNoticeText(canaryJob('missed'), { messagesWaiting: 0, guardians: 0 }, LINK, 'UTC'),
    says: [/^Missed check-in: "Daily"$/, /missed its check-in, due Fri, 27 Nov 2026, 14:00 UTC/, /Nothing of yours is set to be released/],
    never: [/grace period/],
  },
];

describe('the owner’s notice texts, by state', () => {
  it.each(table)('$state: says its state and nothing else', ({ notice, says, never }) => {
    // The subject is the first line, the body the rest: ^ and $ anchor at either.
    const whole = `${notice.subject}\n${notice.text}`;
    const lines = (r: RegExp) => new RegExp(r.source, `${r.flags}m`);
    for (const s of says) expect(whole).toMatch(lines(s));
    for (const n of never) expect(whole).not.toMatch(lines(n));
  });

  it('a canary notice is written in the owner’s time zone', () => {
    expect(canaryNoticeText(canaryJob('grace_reminder'), stakes, LINK, 'Europe/Berlin').subject).toBe('Check in before Fri, 27 Nov 2026, 15:00 CET: "Daily"');
  });
});

describe('a person named in a notice', () => {
  it('is "Name (email)", or the email alone when they set no name — never "olivia@… (olivia@…)"', () => {
    expect(nameWithEmail('Olivia', 'olivia@example.com')).toBe('Olivia (olivia@example.com)');
    expect(nameWithEmail('olivia@example.com', 'olivia@example.com')).toBe('olivia@example.com');
    expect(nameWithEmail('  ', 'olivia@example.com')).toBe('olivia@example.com');
  });
});
