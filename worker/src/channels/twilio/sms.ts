import type { DeliveryResult, OutgoingMessage } from '../types';
import { twilioCreate } from './client';
import { invalidNumberResult, isE164, readTwilioConfig, type TwilioChannelConfig, type TwilioEnv } from './config';

/** A channel that delivers to a phone number (sms or call). */
export interface PhoneChannel {
  readonly kind: 'sms' | 'call';
  /** `to` is the recipient's verified number in E.164; anything else fails as `gone` without a request. */
  send(to: string, message: OutgoingMessage): Promise<DeliveryResult>;
}

/**
 * Longest SMS body we send, in characters: three concatenated GSM-7 segments (3 × 153 = 459) plus
 * headroom. The message itself is in the recipient's inbox; the SMS says what it is and links there.
 */
export const SMS_MAX_CHARS = 480;

function truncate(text: string, max: number): string {
  const chars = Array.from(text); // code points: never split a surrogate pair
  if (chars.length <= max) return text;
  if (max <= 1) return chars.slice(0, Math.max(0, max)).join('');
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * The SMS text: subject, a blank line, the text, a blank line, the link. The link is always kept
 * whole; subject and text are shortened (with "…") so the whole body fits SMS_MAX_CHARS.
 */
export function smsBody(message: OutgoingMessage, max = SMS_MAX_CHARS): string {
  const link = message.link?.trim() ?? '';
  const subject = message.subject.trim();
  const text = message.text.trim();
  const linkPart = link ? `\n\n${link}` : '';
  let budget = max - Array.from(linkPart).length;
  const subjectPart = truncate(subject, Math.min(Array.from(subject).length, Math.max(0, Math.min(budget, 120))));
  budget -= Array.from(subjectPart).length;
  const separator = subjectPart && text ? '\n\n' : '';
  budget -= separator.length;
  const textPart = text && budget > 0 ? truncate(text, budget) : '';
  return `${subjectPart}${textPart ? separator + textPart : ''}${linkPart}`.trim();
}

export function createTwilioSmsChannel(config: TwilioChannelConfig): PhoneChannel {
  return {
    kind: 'sms',
    async send(to, message) {
      if (!isE164(to)) return invalidNumberResult();
      return twilioCreate(
        config.client,
        'Messages',
        {
          To: to,
          ...(config.messagingServiceSid ? { MessagingServiceSid: config.messagingServiceSid } : { From: config.from }),
          Body: smsBody(message),
          StatusCallback: config.statusCallback,
        },
        message.idempotencyKey,
      );
    },
  };
}

/**
 * The sms channel chosen by `SMS_TRANSPORT`: "twilio" gives the Twilio adapter; anything else
 * ("outbox", the default, or unset) gives null and the caller falls back to the outbox adapter.
 * Throws TwilioConfigError when "twilio" is chosen without the variables it needs.
 */
export function smsChannelFromEnv(env: TwilioEnv): PhoneChannel | null {
  if ((env.SMS_TRANSPORT ?? 'outbox').trim().toLowerCase() !== 'twilio') return null;
  return createTwilioSmsChannel(readTwilioConfig(env, 'sms'));
}
