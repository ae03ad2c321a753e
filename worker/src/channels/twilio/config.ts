import type { DeliveryResult } from '../types';
import type { TwilioClientConfig } from './client';

/**
 * Configuration of the Twilio sms and call channels, read from the Worker's env (vars and secrets).
 *
 *   SMS_TRANSPORT / CALL_TRANSPORT  "twilio" | "outbox" (default "outbox": the factories return null and
 *                                   the caller uses the outbox adapter, which lives elsewhere)
 *   TWILIO_ACCOUNT_SID              AC…, always required (it is in the resource path)
 *   TWILIO_AUTH_TOKEN               secret; Basic-auth password with the account SID, and the key that
 *                                   status callbacks are verified with
 *   TWILIO_API_KEY_SID/_SECRET      optional: Basic auth with an API key instead of the auth token
 *   TWILIO_FROM                     sender number in E.164 (calls always need it; SMS may use a
 *                                   messaging service instead)
 *   TWILIO_MESSAGING_SERVICE_SID    optional MG…: SMS sent with MessagingServiceSid instead of From
 *   TWILIO_API_BASE                 default https://api.twilio.com (tests point it at a local peer)
 *   TWILIO_VOICE                    <Say> voice for calls, default "Polly.Joanna"
 *   TWILIO_TIMEOUT_MS               per-request timeout, default 10000
 *   PUBLIC_ORIGIN                   when set, StatusCallback = {PUBLIC_ORIGIN}/api/notify/twilio/status
 */
export interface TwilioEnv {
  SMS_TRANSPORT?: string;
  CALL_TRANSPORT?: string;
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  TWILIO_API_KEY_SID?: string;
  TWILIO_API_KEY_SECRET?: string;
  TWILIO_FROM?: string;
  TWILIO_MESSAGING_SERVICE_SID?: string;
  TWILIO_API_BASE?: string;
  TWILIO_VOICE?: string;
  TWILIO_TIMEOUT_MS?: string;
  PUBLIC_ORIGIN?: string;
}

export const TWILIO_STATUS_CALLBACK_PATH = '/api/notify/twilio/status';
export const TWILIO_DEFAULT_VOICE = 'Polly.Joanna';

export class TwilioConfigError extends Error {
  override name = 'TwilioConfigError';
}

/** `+` then 7 to 15 digits, no leading zero (ITU-T E.164: at most 15 digits). */
const E164 = /^\+[1-9]\d{6,14}$/;

export function isE164(phone: unknown): phone is string {
  return typeof phone === 'string' && E164.test(phone);
}

/** The result for a recipient number that is not E.164: never sent, never retried. */
export function invalidNumberResult(): DeliveryResult {
  return { ok: false, retryable: false, gone: true, error: 'recipient phone number is not in E.164 form (+ and up to 15 digits)' };
}

export interface TwilioChannelConfig {
  client: TwilioClientConfig;
  from?: string;
  messagingServiceSid?: string;
  voice: string;
  statusCallback?: string;
}

/**
 * Reads the shared Twilio configuration. Throws TwilioConfigError naming the missing variables (never
 * their values) when the channel is set to twilio but cannot work.
 */
export function readTwilioConfig(env: TwilioEnv, channel: 'sms' | 'call'): TwilioChannelConfig {
  const missing: string[] = [];
  const accountSid = env.TWILIO_ACCOUNT_SID?.trim();
  if (!accountSid) missing.push('TWILIO_ACCOUNT_SID');
  const useApiKey = Boolean(env.TWILIO_API_KEY_SID || env.TWILIO_API_KEY_SECRET);
  if (useApiKey) {
    if (!env.TWILIO_API_KEY_SID) missing.push('TWILIO_API_KEY_SID');
    if (!env.TWILIO_API_KEY_SECRET) missing.push('TWILIO_API_KEY_SECRET');
  } else if (!env.TWILIO_AUTH_TOKEN) {
    missing.push('TWILIO_AUTH_TOKEN');
  }
  const from = env.TWILIO_FROM?.trim() || undefined;
  const messagingServiceSid = channel === 'sms' ? env.TWILIO_MESSAGING_SERVICE_SID?.trim() || undefined : undefined;
  if (!from && !messagingServiceSid) missing.push(channel === 'sms' ? 'TWILIO_FROM (or TWILIO_MESSAGING_SERVICE_SID)' : 'TWILIO_FROM');
  if (missing.length) throw new TwilioConfigError(`${channel} over Twilio needs ${missing.join(', ')}`);
  if (from && !messagingServiceSid && !isE164(from)) throw new TwilioConfigError('TWILIO_FROM must be an E.164 number');

  const timeout = Number(env.TWILIO_TIMEOUT_MS);
  const origin = env.PUBLIC_ORIGIN?.trim().replace(/\/+$/, '');
  return {
    client: {
      accountSid: accountSid!,
      username: useApiKey ? env.TWILIO_API_KEY_SID! : accountSid!,
      password: useApiKey ? env.TWILIO_API_KEY_SECRET! : env.TWILIO_AUTH_TOKEN!,
      apiBase: env.TWILIO_API_BASE?.trim() || undefined,
      timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
    },
    from,
    messagingServiceSid,
    voice: env.TWILIO_VOICE?.trim() || TWILIO_DEFAULT_VOICE,
    statusCallback: origin ? `${origin}${TWILIO_STATUS_CALLBACK_PATH}` : undefined,
  };
}
