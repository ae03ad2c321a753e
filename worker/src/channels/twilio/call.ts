import type { OutgoingMessage } from '../types';
import { twilioCreate } from './client';
import { invalidNumberResult, isE164, readTwilioConfig, type TwilioChannelConfig, type TwilioEnv } from './config';
import type { PhoneChannel } from './sms';

export const CALL_CLOSING = 'You can read it in your Afterword inbox.';

/** Twilio accepts at most 4,000 characters in the `Twiml` parameter; we stay under with headroom. */
export const TWIML_MAX_CHARS = 3_900;

/** Escapes text for an XML text node or attribute, and drops characters XML 1.0 cannot carry. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function sentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (!t) return '';
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/** What the call says: the subject, the text, then where to read it. */
export function spokenText(message: OutgoingMessage): string {
  return [sentence(message.subject), sentence(message.text), CALL_CLOSING].filter(Boolean).join(' ');
}

/**
 * `<Response><Say voice="…">…</Say></Response>` speaking the message. Too long a text is shortened
 * (the closing sentence is always kept) so the TwiML fits Twilio's limit.
 */
export function callTwiml(message: OutgoingMessage, voice: string, max = TWIML_MAX_CHARS): string {
  const wrap = (spoken: string) => `<Response><Say voice="${xmlEscape(voice)}">${xmlEscape(spoken)}</Say></Response>`;
  let twiml = wrap(spokenText(message));
  if (twiml.length <= max) return twiml;
  const head = [sentence(message.subject), message.text.trim().replace(/\s+/g, ' ')].filter(Boolean).join(' ');
  let chars = Array.from(head);
  // Shrink until the escaped result fits (escaping can grow the text up to 6×, so iterate).
  while (chars.length > 0) {
    const overshoot = twiml.length - max;
    chars = chars.slice(0, Math.max(0, chars.length - Math.max(overshoot, 16)));
    twiml = wrap(`${chars.join('').trimEnd()}… ${CALL_CLOSING}`);
    if (twiml.length <= max) return twiml;
  }
  return wrap(CALL_CLOSING);
}

export function createTwilioCallChannel(config: TwilioChannelConfig): PhoneChannel {
  return {
    kind: 'call',
    async send(to, message) {
      if (!isE164(to)) return invalidNumberResult();
      return twilioCreate(
        config.client,
        'Calls',
        {
          To: to,
          From: config.from,
          Twiml: callTwiml(message, config.voice),
          StatusCallback: config.statusCallback,
        },
        message.idempotencyKey,
      );
    },
  };
}

/**
 * The call channel chosen by `CALL_TRANSPORT`: "twilio" gives the Twilio adapter; anything else
 * ("outbox", the default, or unset) gives null and the caller falls back to the outbox adapter.
 * Throws TwilioConfigError when "twilio" is chosen without the variables it needs.
 */
export function callChannelFromEnv(env: TwilioEnv): PhoneChannel | null {
  if ((env.CALL_TRANSPORT ?? 'outbox').trim().toLowerCase() !== 'twilio') return null;
  return createTwilioCallChannel(readTwilioConfig(env, 'call'));
}
