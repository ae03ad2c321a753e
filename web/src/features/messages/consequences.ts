import type { DeliveryMethod } from '@afterword/worker/contracts/messages';
import { formatDateTime } from '../../lib/format-time';
import type { Reachability } from '../contacts/types';

/*
 * What creating a message will do, said before the button (UI guide: "never hide what
 * the system will do"; docs/decisions/contacts.md). Pure, so each sentence is tested on its own.
 */

export interface WhenSentInput {
  /** The picked contact's name; 'the recipient' when typed by id. */
  name: string | null;
  hasRules: boolean;
  /** The ISO "Deliver at", or null when empty. */
  deliverAt: string | null;
  nowMs: number;
}

/**
 * When it goes. docs/product.md "Messages and release rules": no rules and no date means now (deliver_at
 * defaults to now).
 */
export function whenSentSentence({ name, hasRules, deliverAt, nowMs }: WhenSentInput): string {
  const who = name ?? 'the recipient';
  const at = deliverAt ? Date.parse(deliverAt) : Number.NaN;
  const future = Number.isFinite(at) && at > nowMs;
  if (hasRules) {
    return future
      ? `This waits for its rules: it is sent to ${who} only after one of them fires, and not before ${formatDateTime(at)}.`
      : `This waits for its rules: it is sent to ${who} only after one of them fires.`;
  }
  if (future) return `No rules: this is sent to ${who} on ${formatDateTime(at)}.`;
  if (deliverAt) return `No rules and a date already past: this is sent to ${who} now.`;
  return `No rules and no date: this is sent to ${who} now.`;
}

/** Whether the chosen method can reach a picked contact now; null when it can (or when nothing is known). */
export function reachSentence(method: DeliveryMethod, reach: Reachability | null): string | null {
  if (!reach || reach.methods[method]) return null;
  const missing = method === 'push' ? 'no device for push' : method === 'sms' ? 'no verified phone for SMS' : 'no verified phone for calls';
  return `${reach.name} has ${missing}; it will still reach their Inbox.`;
}
