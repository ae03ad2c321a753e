import type { Message } from '@afterword/db/schema';
import type { OutgoingMessage } from '../../../channels/types';

/**
 * What a channel carries for a released message: who left something and a link to it — never its
 * content. Email, SMS, a call and a push notification pass through providers, mail servers, lock
 * screens and shared phones; the app is the private place, where the recipient signs in and (for an
 * end-to-end encrypted message) opens it with their own key. The full message is always in the
 * recipient's inbox behind the link (docs/decisions/channels.md, "Notices, not contents").
 */
export function composeDelivery(
  message: Pick<Message, 'content' | 'use_e2ee' | 'audio_key'>,
  senderLabel: string,
  link: string,
  idempotencyKey: string,
): OutgoingMessage {
  const subject = `A message from ${senderLabel}`;
  const what = message.use_e2ee ? 'an end-to-end encrypted message' : message.audio_key ? 'a message with a voice recording' : 'a message';
  const text = `${senderLabel} left you ${what} on Afterword. Read it in your Afterword inbox: sign in and open the link. Its words are not in this notice.`;
  return { idempotencyKey, subject, text, link };
}
