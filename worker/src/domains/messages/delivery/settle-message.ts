import { failedNotice } from '../notices/message-notice-texts';
import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { ServiceContext } from '../../../env';
import { commitTransition } from '../release/commit-transition';
import { loadEngineMessage } from '../release/load-message';

/**
 * Once every delivery of a released message is finished, the message is too: delivered, or failed (and
 * its owner told). Idempotent; the reconciler calls it for messages left releasing by a crash.
 */
export async function settleMessage(ctx: ServiceContext, messageId: string): Promise<void> {
  const loaded = await loadEngineMessage(ctx, messageId);
  if (loaded?.message.status !== 'releasing') return;
  const rows = await ctx.db.select().from(schema.deliveries).where(eq(schema.deliveries.message_id, messageId));
  if (!rows.length || rows.some((d) => d.status !== 'delivered' && d.status !== 'failed')) return;
  const failed = rows.filter((d) => d.status === 'failed');
  const now = ctx.now().getTime();
  const { message, recipientLabel } = loaded;
  if (!failed.length) {
    await commitTransition(ctx, message, {
      to: 'delivered',
      cause: 'delivered',
      detail: `Delivered by ${rows.map((d) => d.channel).join(', ')}.`,
      set: { finished_at: now },
    });
    return;
  }
  const reasons = failed.map((d) => `${d.channel} after ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}: ${d.last_error ?? 'unknown error'}`).join('; ');
  await commitTransition(ctx, message, {
    to: 'failed',
    cause: 'failed',
    detail: `Delivery failed (${reasons}). It is still in the recipient's inbox.`,
    set: { finished_at: now },
    notice: { kind: 'message_failed', ...failedNotice({ vault: Boolean(message.vault_item_id), recipient: recipientLabel }, reasons) },
  });
}
