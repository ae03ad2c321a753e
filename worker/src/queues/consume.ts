import { dispatchMissedCheckins } from '../domains/canary/missed-event-subscribers';
import type { MissedCheckinsEvent } from '../domains/canary/emit-missed-events';
import { deliverMessage, type DeliverJob } from '../domains/messages/delivery/deliver-message';
import { sendOwnerNotice, type OwnerNoticeJob } from '../domains/messages/notices/send-owner-notice';
import { deliverWebhook, type WebhookJob } from '../domains/webhooks/deliver';
import { log } from '../lib/logger';
import { createServiceContext, type Bindings } from '../env';

/**
 * Queue consumer for deliveries and jobs. Messages are `{type, …}`; each type gets a handler from its
 * domain (release engine, webhooks, imports). A type with no handler is a bug in a producer: it is
 * logged and acknowledged so it cannot block the batch, never silently retried forever.
 */
type Handler = (body: unknown, env: Bindings) => Promise<void>;
const handlers: Record<string, Handler> = {
  missed_checkins: (body, env) => dispatchMissedCheckins(body as MissedCheckinsEvent, env),
  deliver: (body, env) => deliverMessage(createServiceContext(env), (body as DeliverJob).delivery_id),
  owner_notice: async (body, env) => void (await sendOwnerNotice(createServiceContext(env), (body as OwnerNoticeJob).notice_id)),
  webhook: async (body, env) => void (await deliverWebhook(createServiceContext(env), (body as WebhookJob).delivery_id)),
};

export async function consumeBatch(batch: MessageBatch<unknown>, env: Bindings) {
  for (const message of batch.messages) {
    const type = (message.body as { type?: unknown } | null)?.type;
    const handler = typeof type === 'string' ? handlers[type] : undefined;
    if (!handler) {
      log.error('queue message without a handler', { queue: batch.queue, id: message.id, type: String(type) });
      message.ack();
      continue;
    }
    try {
      await handler(message.body, env);
      message.ack();
    } catch (err) {
      log.error('queue handler failed; will retry', { queue: batch.queue, id: message.id, type, error: String(err) });
      message.retry();
    }
  }
}
