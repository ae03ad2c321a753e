import type { DeliveryResult, EmailAddress, OutgoingMessage } from '../types';

/**
 * One email delivery attempt: what every email transport (SMTP, HTTP API, outbox) implements. `M` lets
 * the outbox ask for more than providers need (the recipient account, channels/types.ts AddressedMessage).
 */
export type EmailSender<M extends OutgoingMessage = OutgoingMessage> = (to: EmailAddress, message: M) => Promise<DeliveryResult>;
