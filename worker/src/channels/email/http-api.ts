import type { DeliveryResult, EmailAddress } from '../types';
import { composeText, formatAddressText, isValidAddress, parseAddress } from './mime';
import type { EmailSender } from './types';

/**
 * Email through Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email):
 * `POST {base}/emails` with `Authorization: Bearer <key>`, a JSON body `{from, to, subject, text}` and
 * `Idempotency-Key` set to the delivery's idempotency key, so a retried delivery is sent once.
 * Success is `200 {"id": "…"}`; errors are `{statusCode, name, message}`.
 *
 * Outcomes: 429, 5xx, 409 `concurrent_idempotent_requests` (the same key is still in flight), network
 * errors and the timeout → retryable; any other 4xx (422 validation, 401/403 key problems,
 * 409 `invalid_idempotent_request`) → not retryable. Errors never contain the API key.
 */

export const DEFAULT_EMAIL_API_BASE = 'https://api.resend.com';
export const DEFAULT_EMAIL_API_TIMEOUT_MS = 15_000;

export interface EmailApiConfig {
  base: string;
  apiKey: string;
  from: EmailAddress;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface EmailApiEnv {
  EMAIL_API_BASE?: string;
  EMAIL_API_KEY?: string;
  EMAIL_FROM?: string;
}

export function emailApiConfigFromEnv(env: EmailApiEnv): EmailApiConfig | { error: string } {
  if (!env.EMAIL_API_KEY) return { error: 'email misconfigured: EMAIL_API_KEY is not set' };
  const from = env.EMAIL_FROM ? parseAddress(env.EMAIL_FROM) : null;
  if (!from) return { error: 'email misconfigured: EMAIL_FROM is not set or not an address' };
  const base = env.EMAIL_API_BASE || DEFAULT_EMAIL_API_BASE;
  try {
    new URL(base);
  } catch {
    return { error: 'email misconfigured: EMAIL_API_BASE is not a URL' };
  }
  return { base, apiKey: env.EMAIL_API_KEY, from };
}

interface ResendError {
  statusCode?: number;
  name?: string;
  message?: string;
}

export function createEmailApiSender(config: EmailApiConfig): EmailSender {
  const doFetch = config.fetch ?? fetch;
  const timeoutMs = config.timeoutMs ?? DEFAULT_EMAIL_API_TIMEOUT_MS;
  const url = `${config.base.replace(/\/+$/, '')}/emails`;
  const redact = (s: string) =>
    s
      .split(config.apiKey)
      .join('[redacted]')
      .replace(/[\r\n]+/g, ' ')
      .slice(0, 300);

  return async (to, message): Promise<DeliveryResult> => {
    if (!isValidAddress(to.email)) return { ok: false, retryable: false, error: 'invalid recipient address' };
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': message.idempotencyKey,
          'user-agent': 'afterword-worker',
        },
        body: JSON.stringify({
          from: formatAddressText(config.from),
          to: [formatAddressText(to)],
          subject: message.subject,
          text: composeText(message),
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const detail = timedOut ? `timed out after ${timeoutMs / 1000}s` : err instanceof Error ? err.message : String(err);
      return { ok: false, retryable: true, error: redact(`email API request failed: ${detail}`) };
    }

    const raw = await res.text().catch(() => '');
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }

    if (res.ok) {
      const id = body && typeof body === 'object' && typeof (body as { id?: unknown }).id === 'string' ? (body as { id: string }).id : undefined;
      return id ? { ok: true, providerId: id } : { ok: true };
    }

    const e = (body && typeof body === 'object' ? body : {}) as ResendError;
    const detail = [e.name, e.message].filter((x): x is string => typeof x === 'string' && x !== '').join(': ');
    const error = redact(`email API answered ${res.status}${detail ? ` ${detail}` : ''}`);
    const retryable = res.status === 429 || res.status === 408 || res.status >= 500 || (res.status === 409 && e.name === 'concurrent_idempotent_requests');
    return { ok: false, retryable, error, status: res.status };
  };
}
