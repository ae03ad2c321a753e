import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { billingProvider } from './providers';

/**
 * Before an account is erased: its running subscription is canceled with the provider, so an erased
 * account is never charged again. A provider that cannot be reached does not stop the erasure (the
 * person asked for it, or their dead-man's switch did); the failure is logged for an operator to cancel
 * by hand (the subscription id is in the log line).
 */
export async function cancelBillingOf(ctx: ServiceContext, userId: string): Promise<void> {
  const row = await ctx.env.DB.prepare(
    "SELECT subscription_id, provider FROM billing_accounts WHERE user_id = ?1 AND subscription_id IS NOT NULL AND status <> 'canceled'",
  )
    .bind(userId)
    .first<{ subscription_id: string; provider: 'stripe' | 'sandbox' }>();
  if (!row) return;
  try {
    await billingProvider(ctx.env).cancelSubscription(row.subscription_id);
  } catch (err) {
    log.error('subscription not canceled at the provider; cancel it by hand', { user_id: userId, subscription_id: row.subscription_id, error: String(err) });
  }
}
