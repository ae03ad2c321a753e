import { describe, expect, it } from 'vitest';
import { buildMessage } from '../src/channels/email/mime';
import { pushPayload } from '../src/channels/push/send';
import { callTwiml, smsBody, spokenText } from '../src/channels/twilio';
import { composeDelivery } from '../src/domains/messages/delivery/compose';

/**
 * A released message's words never leave the app on a channel: every channel's rendering of its
 * delivery — the email as sent over SMTP, the SMS body, the call's spoken words and TwiML, the push
 * payload — names who left it and links to it, and holds no marker of its content.
 */
const MARKER = 'Rob — this one goes only if I miss a check-in. Please call Gina. MARKER-7f3a';
const LINK = 'https://afterword.example/app/messages/view/00000000-0000-4000-8000-000000000000';

const renderings = async (message: { content: string; use_e2ee: boolean; audio_key: string | null }) => {
  const out = composeDelivery(message, 'Ann Example', LINK, 'delivery:1');
  const email = await buildMessage({ email: 'no-reply@afterword.example' }, { email: 'rob@example.com' }, out, new Date(0));
  return {
    'the outbox row / provider text': out.text,
    subject: out.subject,
    'the email as sent': email.data,
    'the SMS body': smsBody(out),
    'the spoken call': spokenText(out),
    'the call TwiML': callTwiml(out, 'Polly.Joanna'),
    'the push payload': pushPayload(out),
  };
};

describe('what a channel carries for a released message', () => {
  for (const [label, message] of [
    ['a plain message', { content: MARKER, use_e2ee: false, audio_key: null }],
    ['a message with a recording', { content: MARKER, use_e2ee: false, audio_key: 'audio/1' }],
  ] as const) {
    it(`${label}: who left it and the link, never its words`, async () => {
      for (const [channel, text] of Object.entries(await renderings(message))) {
        expect(text, channel).not.toContain('MARKER-7f3a');
        expect(text, channel).not.toContain('call Gina');
      }
      const r = await renderings(message);
      expect(r['the SMS body']).toContain('Ann Example');
      expect(r['the SMS body']).toContain(LINK);
      expect(r['the push payload']).toContain(LINK);
    });
  }
});
