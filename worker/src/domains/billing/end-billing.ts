import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { billingProvider } from './providers';

/** The user's subscription that still runs at the provider, if any. */
export async function runningSubscriptionId(ctx: ServiceContext, userId: string): Promise<string | null> {
  const row = await ctx.env.DB.prepare(
    "SELECT subscription_id FROM billing_accounts WHERE user_id = ?1 AND subscription_id IS NOT NULL AND status <> 'canceled'",
  )
    .bind(userId)
    .first<{ subscription_id: string }>();
  return row?.subscription_id ?? null;
}

/**
 * Cancels a subscription at the provider. A provider that cannot be reached does not stop what asked for
 * it (an erasure, a new plan); the failure is logged with the subscription id for an operator to cancel
 * by hand.
 */
export async function cancelAtProvider(ctx: ServiceContext, userId: string, subscriptionId: string, failedMessage: string): Promise<void> {
  try {
    await billingProvider(ctx.env).cancelSubscription(subscriptionId);
  } catch (err) {
    log.error(failedMessage, { user_id: userId, subscription_id: subscriptionId, error: String(err) });
  }
}

/**
 * Before an account is erased: its running subscription is canceled with the provider, so an erased
 * account is never charged again (the person asked for it, or their dead-man's switch did).
 */
export async function cancelBillingOf(ctx: ServiceContext, userId: string): Promise<void> {
  const running = await runningSubscriptionId(ctx, userId);
  if (running) await cancelAtProvider(ctx, userId, running, 'subscription not canceled at the provider; cancel it by hand');
}
