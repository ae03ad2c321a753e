import type { Message, MessageTransition } from '@afterword/db/schema';
import type { MessageTransitionView, MessageView } from '../../contracts/messages';
import { isOpen } from './release/schedule';

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The API's message. `sendersConsentWithdrawn`: the sender's messages consent is withdrawn (known to the
 * caller that reads the sender's own messages), so an open message shows as paused.
 */
export function toMessageView(
  m: Message,
  extra: Pick<MessageView, 'recipient_email' | 'sender_email' | 'sender_name'> = {},
  sendersConsentWithdrawn = false,
): MessageView {
  return {
    id: m.id,
    sender_id: m.sender_id,
    recipient_user_id: m.recipient_user_id,
    ...extra,
    content: m.content,
    content_encrypted: m.content_encrypted,
    deliver_at: m.deliver_at.toISOString(),
    delivered: m.released_at != null,
    delivery_method: m.delivery_method,
    use_e2ee: m.use_e2ee,
    rules: m.rules.map((r) => ({
      trigger_type: r.trigger_type,
      trigger_value: r.trigger_value,
      expire_window: r.expire_window,
      fired_at: r.fired_at ? new Date(r.fired_at).toISOString() : null,
    })),
    status: m.status,
    has_audio: m.audio_key != null,
    audio_type: m.audio_type,
    armed_at: isoOrNull(m.armed_at),
    cancel_deadline: isoOrNull(m.cancel_deadline),
    released_at: isoOrNull(m.released_at),
    created_at: m.created_at.toISOString(),
    paused: sendersConsentWithdrawn && isOpen(m.status) ? 'consent_withdrawn' : null,
    undeliverable: isUndeliverable(m) ? 'recipient_left' : null,
  };
}

/**
 * A message whose recipient left Afterword before it was released: account deletion cancelled it (cause
 * `recipient_left`) and the recipient column was emptied with the account.
 */
export const isUndeliverable = (m: Pick<Message, 'recipient_user_id' | 'released_at'>) => m.recipient_user_id == null && m.released_at == null;

export function toTransitionView(t: MessageTransition): MessageTransitionView {
  return { at: t.created_at.toISOString(), from: t.from_status, to: t.to_status, cause: t.cause, detail: t.detail };
}
