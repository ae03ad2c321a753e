import { schema } from '@afterword/db';
import { and, eq, inArray, lte, or } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { JOB_LOST_AFTER_MS } from '../messages/reconcile-releases';
import type { WebhookJob } from './deliver';

/**
 * The queue is the fast path, never the only record. Every minute (cron): re-send the jobs of webhook
 * deliveries that should have run a minute ago (pending or retrying and overdue, or `sending` with an
 * expired lease — a crash mid-attempt). The claim makes an extra job harmless.
 */
export async function reconcileWebhooks(ctx: ServiceContext) {
  const now = ctx.now().getTime();
  const lost = await ctx.db
    .select({ id: schema.webhookDeliveries.id })
    .from(schema.webhookDeliveries)
    .where(
      or(
        and(
          inArray(schema.webhookDeliveries.status, ['pending', 'retrying']),
          lte(schema.webhookDeliveries.next_attempt_at, new Date(now - JOB_LOST_AFTER_MS)),
        ),
        and(eq(schema.webhookDeliveries.status, 'sending'), lte(schema.webhookDeliveries.lease_until, new Date(now))),
      ),
    )
    .limit(100);
  if (lost.length) {
    await ctx.env.DELIVERIES.sendBatch(lost.map((d) => ({ body: { type: 'webhook', delivery_id: d.id } satisfies WebhookJob, contentType: 'json' as const })));
    log.warn('webhook reconciler re-sent jobs', { deliveries: lost.length });
  }
  return { deliveries: lost.length };
}
