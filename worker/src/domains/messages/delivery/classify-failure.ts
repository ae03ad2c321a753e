import type { ChannelKind, DeliveryResult } from '../../../channels/types';

type Failure = Extract<DeliveryResult, { ok: false }>;

/**
 * What the sender's delivery log (and the message's history) says about a failed attempt: one of a
 * few plain sentences chosen by what kind of failure it was, never the adapter's raw text or an
 * exception's message (those can carry provider internals; they go to the structured log with the
 * delivery id instead, deliver-message.ts). Failures we describe ourselves for the sender
 * (`reason: 'no_address'`: no verified phone, no push device) keep their sentence.
 */
export function classifyFailure(result: Failure, channel: ChannelKind): string {
  const provider = PROVIDER[channel];
  if (result.reason === 'no_address') return result.error;
  if (result.reason === 'internal') return 'Internal error while sending. It is retried; the reference is in the server log.';
  if (result.reason === 'misconfigured' || /misconfigured|is not set|not configured/i.test(result.error))
    return `The ${provider} is not configured on this server.`;
  if (result.gone) return `The recipient's ${ADDRESS[channel]} no longer exists${result.status ? ` (the ${provider} answered ${result.status})` : ''}.`;
  if (result.reason === 'timeout' || /timed out|answer within/i.test(result.error)) return `The ${provider} did not answer in time.`;
  if (result.status && result.retryable) return `The ${provider} was unavailable (${result.status}).`;
  if (result.status) return `The ${provider} refused the delivery (${result.status}).`;
  if (/invalid recipient|not in E\.164/i.test(result.error)) return `The recipient's ${ADDRESS[channel]} is not valid.`;
  return result.retryable ? `The ${provider} could not be reached.` : `The ${provider} refused the delivery.`;
}

const PROVIDER: Record<ChannelKind, string> = { email: 'email provider', sms: 'SMS provider', call: 'call provider', push: 'push service' };
const ADDRESS: Record<ChannelKind, string> = { email: 'email address', sms: 'phone number', call: 'phone number', push: 'device subscription' };
