/**
 * Delivery channels (docs/server-rules.md "Channels and notifications"). Each kind has real adapters chosen by
 * configuration and, as the local default, an outbox that stores what would have been sent. The release engine
 * and owner notifications call `send` from a queue consumer, never from a request or an alarm.
 */
export type ChannelKind = 'email' | 'sms' | 'call' | 'push';

/** What one delivery carries. For E2EE messages `text` is a notice and a link, never the plaintext. */
export interface OutgoingMessage {
  /** Stable id of this delivery (message id + channel): providers that support it use it to deduplicate. */
  idempotencyKey: string;
  subject: string;
  text: string;
  /** Link to the recipient's inbox copy. */
  link?: string;
}

/**
 * A message as senders hand it to `Channels`: the content plus the account it is for. Real providers
 * ignore the account (the address decides who reads it); the local outbox stores it, because there the
 * account is what decides who may read the row (docs/decisions/local-outbox.md). Required, so every new
 * sender has to say whom a delivery is for.
 */
export interface AddressedMessage extends OutgoingMessage {
  /** The account this delivery is for; null when it is for no known account (only the operator view shows it). */
  recipientUserId: string | null;
}

export interface EmailAddress {
  email: string;
  name?: string;
}

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * The outcome of one attempt. `retryable` failures are retried with backoff by the caller;
 * `gone` means the address no longer exists (e.g. a push subscription answering 404/410) and should be
 * removed. Errors are short, human-readable and never contain secrets.
 */
export type DeliveryResult =
  /**
   * `acceptedAt`: when the provider first accepted this delivery (ms), given by one that keeps its idempotency
   * keys' first acceptance (the outbox) when a repeated send is a no-op; absent means now.
   */
  | { ok: true; providerId?: string; acceptedAt?: number }
  | { ok: false; retryable: boolean; error: string; gone?: boolean; status?: number; reason?: FailureReason };

/**
 * What kind of failure, where the sender must be told something other than "the provider failed":
 * the recipient has no address for the channel, this server is not set up for it, it timed out, or
 * something unexpected happened on our side. (domains/messages/delivery/classify-failure.ts)
 */
export type FailureReason = 'no_address' | 'misconfigured' | 'timeout' | 'internal';
