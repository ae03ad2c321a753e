import type { DeliveryResult, EmailAddress, OutgoingMessage } from '../types';
import { createEmailApiSender, emailApiConfigFromEnv, type EmailApiEnv } from './http-api';
import { createSmtpSender, smtpConfigFromEnv, type SmtpEnv } from './smtp';
import type { EmailSender } from './types';

export type { EmailSender } from './types';
export { createSmtpSender, smtpConfigFromEnv, type SmtpConfig } from './smtp';
export { createEmailApiSender, emailApiConfigFromEnv, type EmailApiConfig } from './http-api';

/**
 * The email channel (docs/server-rules.md "Channels and notifications"). `EMAIL_TRANSPORT` picks the adapter:
 * - `smtp`: SMTP over `cloudflare:sockets` (SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD,
 *   SMTP_SECURE = none | starttls | tls, EMAIL_FROM);
 * - `api`: Resend's HTTP API over fetch (EMAIL_API_BASE, default https://api.resend.com;
 *   EMAIL_API_KEY; EMAIL_FROM);
 * - `outbox` (the default, also when unset): the `outbox` sender the caller passes in (the release
 *   engine's outbox, which stores what would have been sent).
 *
 * A missing or malformed setting does not throw: every send answers a *retryable* failure that names
 * the setting (never its value), so the delivery log shows it and a fix within the retry window
 * still delivers.
 */

export type EmailTransport = 'smtp' | 'api' | 'outbox';

export interface EmailEnv extends SmtpEnv, EmailApiEnv {
  EMAIL_TRANSPORT?: string;
}

export interface EmailChannel<M extends OutgoingMessage = OutgoingMessage> {
  readonly transport: EmailTransport;
  send(to: EmailAddress, message: M): Promise<DeliveryResult>;
}

export interface EmailChannelDeps<M extends OutgoingMessage = OutgoingMessage> {
  /** The local default: stores the email instead of sending it (written by the release engine). */
  outbox: EmailSender<M>;
}

function misconfigured<M extends OutgoingMessage>(transport: EmailTransport, error: string): EmailChannel<M> {
  return { transport, send: async () => ({ ok: false, retryable: true, reason: 'misconfigured', error }) };
}

export function createEmailChannel<M extends OutgoingMessage = OutgoingMessage>(env: EmailEnv, deps: EmailChannelDeps<M>): EmailChannel<M> {
  const transport = (env.EMAIL_TRANSPORT || 'outbox').toLowerCase();
  switch (transport) {
    case 'smtp': {
      const config = smtpConfigFromEnv(env);
      if ('error' in config) return misconfigured('smtp', config.error);
      return { transport: 'smtp', send: createSmtpSender(config) };
    }
    case 'api': {
      const config = emailApiConfigFromEnv(env);
      if ('error' in config) return misconfigured('api', config.error);
      return { transport: 'api', send: createEmailApiSender(config) };
    }
    case 'outbox':
      return { transport: 'outbox', send: deps.outbox };
    default:
      return misconfigured('outbox', 'email misconfigured: EMAIL_TRANSPORT must be smtp, api or outbox');
  }
}
