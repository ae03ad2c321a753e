import type { ServiceContext } from '../env';
import { createEmailChannel } from './email';
import { deliverToOutbox } from './outbox';
import { createPushChannel } from './push';
import { callChannelFromEnv, smsChannelFromEnv, type PhoneChannel } from './twilio';
import type { AddressedMessage, ChannelKind, DeliveryResult, EmailAddress, PushSubscriptionJson } from './types';

/**
 * Every channel as the release engine and owner notices use it, each adapter chosen by configuration
 * (`*_TRANSPORT`) with the outbox as the local default. A misconfigured adapter does not throw: each send
 * answers a retryable failure naming the setting, so the delivery log shows it and a fix inside the
 * retry window still delivers. Every send names the account it is for (`recipientUserId`): the outbox
 * shows a row only to that account.
 */
export interface Channels {
  readonly transports: Record<ChannelKind, string>;
  email(to: EmailAddress, message: AddressedMessage): Promise<DeliveryResult>;
  sms(to: string, message: AddressedMessage): Promise<DeliveryResult>;
  call(to: string, message: AddressedMessage): Promise<DeliveryResult>;
  push(subscription: PushSubscriptionJson, message: AddressedMessage): Promise<DeliveryResult>;
}

const misconfigured = (err: unknown): DeliveryResult => ({
  ok: false,
  retryable: true,
  reason: 'misconfigured',
  error: err instanceof Error ? err.message : 'channel misconfigured',
});

function phone(ctx: ServiceContext, kind: 'sms' | 'call', make: () => PhoneChannel | null) {
  let channel: PhoneChannel | null;
  try {
    channel = make();
  } catch (err) {
    return { transport: 'twilio', send: async () => misconfigured(err) };
  }
  if (!channel) return { transport: 'outbox', send: (to: string, m: AddressedMessage) => deliverToOutbox(ctx, kind, to, m) };
  const real = channel;
  return { transport: 'twilio', send: (to: string, m: AddressedMessage) => real.send(to, m) };
}

export function createChannels(ctx: ServiceContext): Channels {
  const env = ctx.env;
  const email = createEmailChannel<AddressedMessage>(env, { outbox: (to, m) => deliverToOutbox(ctx, 'email', to.email, m) });
  const sms = phone(ctx, 'sms', () => smsChannelFromEnv(env));
  const call = phone(ctx, 'call', () => callChannelFromEnv(env));
  let push: { transport: string; send: Channels['push'] };
  try {
    const channel = createPushChannel(env);
    push = channel
      ? { transport: 'webpush', send: (s, m) => channel.send(s, m) }
      : { transport: 'outbox', send: (s, m) => deliverToOutbox(ctx, 'push', s.endpoint, m) };
  } catch (err) {
    push = { transport: 'webpush', send: async () => misconfigured(err) };
  }
  return {
    transports: { email: email.transport, sms: sms.transport, call: call.transport, push: push.transport },
    email: (to, m) => email.send(to, m),
    sms: sms.send,
    call: call.send,
    push: push.send,
  };
}

/**
 * Every channel to the local outbox, whatever the configuration: what a sandbox API key causes
 * (docs/decisions/api-keys.md, "Sandbox keys") is shown, never sent.
 */
export function outboxChannels(ctx: ServiceContext): Channels {
  return {
    transports: { email: 'outbox', sms: 'outbox', call: 'outbox', push: 'outbox' },
    email: (to, m) => deliverToOutbox(ctx, 'email', to.email, m),
    sms: (to, m) => deliverToOutbox(ctx, 'sms', to, m),
    call: (to, m) => deliverToOutbox(ctx, 'call', to, m),
    push: (s, m) => deliverToOutbox(ctx, 'push', s.endpoint, m),
  };
}
