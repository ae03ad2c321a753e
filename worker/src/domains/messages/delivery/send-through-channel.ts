import type { Message } from '@afterword/db/schema';
import type { Channels } from '../../../channels/registry';
import type { AddressedMessage, DeliveryResult, OutgoingMessage } from '../../../channels/types';
import type { ServiceContext } from '../../../env';
import { listPushSubscriptions, removeGoneSubscription } from '../../notify/push-subscriptions';

export interface RecipientAddress {
  id: string;
  email: string;
  display_name: string;
  phone_e164: string | null;
  phone_verified_at: Date | null;
}

/**
 * Sends one delivery through the message's channel to the recipient's address for it. The recipient's
 * account travels with it, taken from the same row as the address, so locally the delivery shows in
 * the recipient's outbox and nobody else's.
 */
export async function sendThroughChannel(
  ctx: ServiceContext,
  channels: Channels,
  method: Message['delivery_method'],
  recipient: RecipientAddress,
  content: OutgoingMessage,
): Promise<DeliveryResult> {
  const out: AddressedMessage = { ...content, recipientUserId: recipient.id };
  switch (method) {
    case 'email':
      return channels.email({ email: recipient.email, ...(recipient.display_name ? { name: recipient.display_name } : {}) }, out);
    case 'sms':
    case 'call':
      if (!recipient.phone_e164 || !recipient.phone_verified_at) {
        return { ok: false, retryable: false, reason: 'no_address', error: 'The recipient has no verified phone number' };
      }
      return channels[method](recipient.phone_e164, out);
    case 'push':
      return pushToEveryDevice(ctx, channels, recipient.id, out);
  }
}

/** Every subscribed device; a subscription the push service calls gone is removed. Delivered if any device took it. */
async function pushToEveryDevice(ctx: ServiceContext, channels: Channels, userId: string, out: AddressedMessage): Promise<DeliveryResult> {
  const subscriptions = await listPushSubscriptions(ctx, userId);
  if (!subscriptions.length)
    return { ok: false, retryable: false, reason: 'no_address', error: 'The recipient has no device subscribed to push notifications' };
  const results = await Promise.all(
    subscriptions.map(async (s) => {
      const result = await channels.push(s, { ...out, idempotencyKey: `${out.idempotencyKey}:${s.id}` });
      if (!result.ok && result.gone) await removeGoneSubscription(ctx, s.id);
      return result;
    }),
  );
  const delivered = results.find((r) => r.ok);
  if (delivered) return delivered;
  const failures = results.filter((r): r is Extract<DeliveryResult, { ok: false }> => !r.ok);
  // The most telling failure stands for all (retryable if any device may still take it).
  const first = failures.find((f) => f.retryable) ?? failures[0]!;
  return { ...first, retryable: failures.some((f) => f.retryable), error: failures.map((f) => f.error).join('; ') };
}
