import type { DeliveryResult, EmailAddress, OutgoingMessage } from '../types';

/** One email delivery attempt: what every email transport (SMTP, HTTP API, outbox) implements. */
export type EmailSender = (to: EmailAddress, message: OutgoingMessage) => Promise<DeliveryResult>;
