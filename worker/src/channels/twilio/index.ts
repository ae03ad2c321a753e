/**
 * Twilio sms and call channels (docs/server-rules.md "Channels and notifications"). See config.ts for the env
 * variables, client.ts for the REST calls and their outcome mapping, signature.ts for verifying status callbacks.
 */
export { smsChannelFromEnv, createTwilioSmsChannel, smsBody, SMS_MAX_CHARS, type PhoneChannel } from './sms';
export { callChannelFromEnv, createTwilioCallChannel, callTwiml, spokenText, xmlEscape } from './call';
export { readTwilioConfig, isE164, TwilioConfigError, TWILIO_STATUS_CALLBACK_PATH, type TwilioEnv } from './config';
export { twilioCreate, TWILIO_GONE_CODES, TWILIO_DEFAULT_API_BASE, TWILIO_DEFAULT_TIMEOUT_MS } from './client';
export { computeTwilioSignature, verifyTwilioSignature, verifyTwilioRequest, twilioSignedPayload } from './signature';
