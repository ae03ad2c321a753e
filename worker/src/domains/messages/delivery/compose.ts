import type { Message } from '@afterword/db/schema';
import type { OutgoingMessage } from '../../../channels/types';

/**
 * What a channel carries for a released message. The full message is always in the recipient's inbox;
 * the channel carries the text and a link there — and for an end-to-end encrypted message only a notice
 * and the link, never the content (the server cannot read it anyway).
 */
export function composeDelivery(
  message: Pick<Message, 'content' | 'use_e2ee' | 'audio_key'>,
  senderLabel: string,
  link: string,
  idempotencyKey: string,
): OutgoingMessage {
  const subject = `A message from ${senderLabel}`;
  const recording = message.audio_key ? '\n\nIt includes a voice recording: listen to it in your Afterword inbox.' : '';
  const text = message.use_e2ee
    ? `${senderLabel} left you an end-to-end encrypted message. Open your Afterword inbox to read it.`
    : `${message.content.trim() || `${senderLabel} left you a message.`}${recording}`;
  return { idempotencyKey, subject, text, link };
}
