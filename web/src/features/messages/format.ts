import type { DeliveryLogEntry, DeliveryMethod, MessageRuleView, MessageStatus, MessageView } from '@afterword/worker/contracts/messages';
import type { BadgeTone } from '../../components/badge';
import { formatDateTime } from '../../lib/format-time';

export const STATUS_LABEL: Record<MessageStatus, string> = {
  scheduled: 'Scheduled',
  armed: 'Armed',
  releasing: 'Releasing',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const STATUS_TONE: Record<MessageStatus, BadgeTone> = {
  scheduled: 'neutral',
  armed: 'grace',
  releasing: 'accent',
  delivered: 'active',
  failed: 'missed',
  cancelled: 'neutral',
};

/** A message (or vault item) paused by its sender's withdrawn messages consent: said in words, not colour alone. */
export const PAUSED_LABEL = 'Paused: consent withdrawn';
/** A message whose recipient deleted their account before it was released (docs/decisions/data-rights.md). */
export const UNDELIVERABLE_LABEL = 'Undeliverable: the recipient left Afterword';
export const UNDELIVERABLE_NOTE =
  'The recipient deleted their Afterword account before this message was released, so it will never be delivered. It stays here for you to read.';
/** Who a message is to once its recipient deleted their account: nothing of them is kept. */
export const LEFT_RECIPIENT = 'Someone who left Afterword';
export const PAUSED_NOTE =
  'Paused: you withdrew your messages consent, so nothing is armed or released. Allow messages again on the Data Consents page and it resumes under its rules.';

export const METHOD_LABEL: Record<DeliveryMethod, string> = {
  email: 'Email',
  sms: 'SMS',
  call: 'Phone call',
  push: 'Push notification',
};

export const CHANNEL_LABEL: Record<DeliveryLogEntry['channel'], string> = { ...METHOD_LABEL, inbox: 'Inbox' };

/** The sender may still release or cancel it. */
export const isOpen = (status: MessageStatus) => status === 'scheduled' || status === 'armed';
/** Nothing more will happen to it on its own. */
export const isSettled = (status: MessageStatus) => status === 'delivered' || status === 'failed' || status === 'cancelled';

const pad = (n: number) => String(Math.abs(Math.trunc(n))).padStart(2, '0');

/** The browser's UTC offset at that local moment, as '+02:00' / '-05:00'. */
function offsetOf(local: Date): string {
  const minutes = -local.getTimezoneOffset();
  return `${minutes < 0 ? '-' : '+'}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

/**
 * A datetime-local value ('2026-05-14T09:30') read in the browser's time zone, as ISO 8601 with that
 * offset ('2026-05-14T09:30:00+02:00'). Blank → null; anything else unreadable is passed on unchanged,
 * so the server says what is wrong with it.
 */
export function localDateTimeToIso(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  if (!m) return v;
  const [, y, mo, d, h, mi, s = '00'] = m;
  const local = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(local.getTime())) return v;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${offsetOf(local)}`;
}

/** A date input's value ('2026-05-14') as the start of that day in the browser's time zone. */
export function localDateToIso(value: string): string {
  const v = value.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? (localDateTimeToIso(`${v}T00:00`) ?? v) : v;
}

const dateOnly = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });

/** A rule's date: a plain date, or a date-time read in the reader's zone. */
function formatRuleDate(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split('-').map(Number);
    return dateOnly.format(new Date(y!, m! - 1, d!));
  }
  return formatDateTime(value);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** 'After 3 missed check-ins', 'On Tue, 14 May 2026, 00:00', '7 days after death', plus the expire window. */
export function describeRule(rule: Pick<MessageRuleView, 'trigger_type' | 'trigger_value' | 'expire_window'>): string {
  const n = Number(rule.trigger_value);
  let text: string;
  if (rule.trigger_type === 'missed_checkins') text = `After ${plural(n, 'missed check-in')}`;
  else if (rule.trigger_type === 'fixed_date') text = `On ${formatRuleDate(rule.trigger_value)}`;
  else text = n === 0 ? 'As soon as a death is confirmed' : `${plural(n, 'day')} after death`;
  if (rule.expire_window !== null && rule.expire_window !== undefined) {
    text += `; cancelled if you check in within ${plural(rule.expire_window, 'day')}`;
  }
  return text;
}

/** A message with no words and no recording (a vault file, files alone): what to do, not "(No text)". */
export const NO_WORDS = 'No words: open it to see what it holds';

/** The first line of a message, shortened, for lists. */
export function excerpt(message: Pick<MessageView, 'content' | 'use_e2ee' | 'has_audio'>, max = 90): string {
  if (message.use_e2ee && !message.content.trim()) return 'End-to-end encrypted message';
  const first = message.content.trim().split('\n')[0]?.trim() ?? '';
  if (!first) return message.has_audio ? 'Voice recording' : NO_WORDS;
  return first.length > max ? `${first.slice(0, max - 1).trimEnd()}…` : first;
}

/** Who a message goes to, as the sender knows them. */
export const recipientLabel = (m: Pick<MessageView, 'recipient_email' | 'recipient_user_id'>) => m.recipient_email || m.recipient_user_id || LEFT_RECIPIENT;

/** Who a message came from, as the recipient knows them. */
export const senderLabel = (m: Pick<MessageView, 'sender_name' | 'sender_email'>) => m.sender_name?.trim() || m.sender_email || 'Someone';

/** '0:07', '1:23' */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
