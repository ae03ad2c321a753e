import type { MessageView } from '@afterword/worker/contracts/messages';
import { Badge } from '../../components/badge';
import { STATUS_LABEL, STATUS_TONE, UNDELIVERABLE_LABEL } from './format';

/** A message's state for its sender: its status, or why it can never be delivered. */
export function StatusBadge({ message }: { message: Pick<MessageView, 'status' | 'undeliverable'> }) {
  if (message.undeliverable === 'recipient_left') return <Badge tone="missed">{UNDELIVERABLE_LABEL}</Badge>;
  return <Badge tone={STATUS_TONE[message.status]}>{STATUS_LABEL[message.status]}</Badge>;
}
