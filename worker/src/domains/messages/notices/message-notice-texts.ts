import { humanTime } from '../../../lib/human-time';

/**
 * The words of the owner's notices about their messages and vault files, one function per state the
 * thing is now in (armed, released, failed), so each notice says that state and what comes next. A vault
 * file is called a vault file. Every text is checked by worker/test/notice-texts.test.ts, state by state.
 */
export interface NoticeSubject {
  /** A vault file or a message. */
  vault: boolean;
  recipient: string;
}

export interface NoticeText {
  subject: string;
  text: string;
}

const thing = (s: NoticeSubject) => (s.vault ? 'vault file' : 'message');

/**
 * Armed: a rule fired. With a cancel window it goes at the window's end unless the owner checks in; with
 * none it goes at once (or at its delivery time, when that is later) — the notice says which.
 */
export function armedNotice(
  s: NoticeSubject,
  rule: string,
  why: string,
  releaseAt: number,
  firedAt: number,
  windowed: boolean,
  checkInLink: string,
): NoticeText {
  const what = `Your ${thing(s)} to ${s.recipient}`;
  if (windowed) {
    return {
      subject: `${what} will be released at ${humanTime(releaseAt)} unless you check in`,
      text: `Armed: rule "${rule}" fired (${why}). It will be released at ${humanTime(releaseAt)} unless you check in before then. Check in with one tap: ${checkInLink}`,
    };
  }
  if (releaseAt > firedAt) {
    return {
      subject: `${what} is armed: released at ${humanTime(releaseAt)}`,
      text: `Armed: rule "${rule}" fired (${why}). It has no cancel window and will be released at ${humanTime(releaseAt)}, its delivery time.`,
    };
  }
  return {
    subject: `${what} is armed and goes out now`,
    text: `Armed: rule "${rule}" fired (${why}). It has no cancel window, so it is being released now; you will be told when it is.`,
  };
}

/** Released: in the recipient's inbox, and on its way by its channel. `why`: what released it. */
export function releasedNotice(s: NoticeSubject, why: string, channel: string): NoticeText {
  return {
    subject: `Your ${thing(s)} to ${s.recipient} was released`,
    text: `Released: ${why} It is in ${s.recipient}'s inbox and is being delivered by ${channel}.`,
  };
}

/** Failed: every try on its channel failed; it stays readable in the recipient's inbox. */
export function failedNotice(s: NoticeSubject, reasons: string): NoticeText {
  return {
    subject: `Your ${thing(s)} to ${s.recipient} could not be delivered`,
    text: `Not delivered: ${reasons}. It is still in ${s.recipient}'s Afterword inbox.`,
  };
}

/** What released a message, said as the reason a released notice gives. */
export const RELEASE_REASONS = {
  windowEnded: 'Its cancel window ended without a check-in.',
  noWindow: 'Its rule fired and it had no cancel window.',
} as const;
