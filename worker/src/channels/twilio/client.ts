import { utf8ToBase64 } from '../../lib/encoding';
import type { DeliveryResult } from '../types';

/**
 * A minimal Twilio REST client over `fetch` (WinterCG: no Node APIs), for the two resources the sms
 * and call channels use:
 *   POST {apiBase}/2010-04-01/Accounts/{AccountSid}/Messages.json
 *   POST {apiBase}/2010-04-01/Accounts/{AccountSid}/Calls.json
 * Form-encoded bodies, HTTP Basic auth (AccountSid:AuthToken, or API key SID:secret), and the
 * delivery's idempotency key in `I-Twilio-Idempotency-Token`.
 *
 * Outcome mapping (DeliveryResult):
 *   - 2xx with a `sid`                         → ok, providerId = sid (SM…/MM… or CA…)
 *   - 408, 429, 5xx, network error, timeout    → retryable
 *   - other 4xx                                → not retryable; `gone` when Twilio's error code says the
 *                                                number can never receive (TWILIO_GONE_CODES)
 * Error texts are short, name Twilio's status and error code, and never contain credentials.
 */

export const TWILIO_DEFAULT_API_BASE = 'https://api.twilio.com';
export const TWILIO_DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Twilio error codes meaning the destination can never receive on this channel: drop the number
 * rather than retry. (21612 "not currently reachable" and 21408 "region not enabled" are not here:
 * they can change without the recipient changing.)
 */
export const TWILIO_GONE_CODES: ReadonlySet<number> = new Set([
  21211, // Invalid 'To' phone number
  21214, // 'To' phone number cannot be reached
  21217, // Phone number does not appear to be valid (calls)
  21401, // Invalid phone number
  21407, // This phone number type does not support SMS
  21421, // PhoneNumber is invalid
  21610, // Attempt to send to an unsubscribed recipient (replied STOP)
  21614, // 'To' number is not a valid mobile number
  13223, // Dial: invalid phone number format
  13224, // Dial: invalid phone number
]);

export interface TwilioClientConfig {
  accountSid: string;
  /** Basic-auth user and password: AccountSid + AuthToken, or an API key SID + secret. */
  username: string;
  password: string;
  apiBase?: string;
  timeoutMs?: number;
}

export type TwilioResource = 'Messages' | 'Calls';

interface TwilioErrorBody {
  code?: number;
  message?: string;
  sid?: string;
  status?: number | string;
}

function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  return out;
}

function shorten(text: string, max = 200): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

function basicAuth(username: string, password: string): string {
  return `Basic ${utf8ToBase64(`${username}:${password}`)}`;
}

export function twilioResourceUrl(config: Pick<TwilioClientConfig, 'accountSid' | 'apiBase'>, resource: TwilioResource): string {
  const base = (config.apiBase || TWILIO_DEFAULT_API_BASE).replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/${resource}.json`;
}

/** Creates a Message or a Call. `form` is sent as given (application/x-www-form-urlencoded). */
export async function twilioCreate(
  config: TwilioClientConfig,
  resource: TwilioResource,
  form: Record<string, string | undefined>,
  idempotencyKey?: string,
): Promise<DeliveryResult> {
  const secrets = [config.password];
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== undefined) body.append(name, value);
  const headers: Record<string, string> = {
    authorization: basicAuth(config.username, config.password),
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (idempotencyKey) headers['i-twilio-idempotency-token'] = idempotencyKey;

  const timeoutMs = config.timeoutMs ?? TWILIO_DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await fetch(twilioResourceUrl(config, resource), {
      method: 'POST',
      headers,
      body: body.toString(),
      signal: controller.signal,
      redirect: 'manual',
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (controller.signal.aborted) {
      return { ok: false, retryable: true, error: `Twilio ${resource}: no answer within ${timeoutMs} ms` };
    }
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, retryable: true, error: shorten(redact(`Twilio ${resource}: network error: ${reason}`, secrets)) };
  } finally {
    clearTimeout(timer);
  }

  let parsed: TwilioErrorBody | null = null;
  try {
    const json: unknown = JSON.parse(text);
    if (json && typeof json === 'object') parsed = json as TwilioErrorBody;
  } catch {
    parsed = null;
  }

  if (status >= 200 && status < 300) {
    if (parsed && typeof parsed.sid === 'string' && parsed.sid) return { ok: true, providerId: parsed.sid };
    // Accepted but unreadable: retrying under the same idempotency token is the safe side.
    return { ok: false, retryable: true, status, error: `Twilio ${resource}: ${status} without a sid` };
  }

  const code = typeof parsed?.code === 'number' ? parsed.code : undefined;
  const detail = typeof parsed?.message === 'string' ? parsed.message : '';
  const error = shorten(redact(`Twilio ${resource}: ${status}${code ? ` (${code})` : ''}${detail ? ` ${detail}` : ''}`, secrets));
  const retryable = status === 408 || status === 429 || status >= 500 || code === 20429;
  if (retryable) return { ok: false, retryable: true, status, error };
  const gone = code !== undefined && TWILIO_GONE_CODES.has(code);
  return gone ? { ok: false, retryable: false, gone: true, status, error } : { ok: false, retryable: false, status, error };
}
