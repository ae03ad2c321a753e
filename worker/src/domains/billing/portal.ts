import type { User } from '@afterword/db/schema';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError } from '../../lib/errors';
import { billingProvider, providerName } from './providers';

export const NOTHING_TO_MANAGE = 'You have no subscription to manage. Choose a plan on the pricing page.';

/** The account's subscription as the portal needs it; null when there is none that renews. */
export async function manageableSubscription(ctx: ServiceContext, userId: string) {
  return ctx.env.DB.prepare(
    `SELECT plan, cycle, status, provider, customer_id, subscription_id, period_end, cancel_at_period_end FROM billing_accounts
     WHERE user_id = ?1 AND subscription_id IS NOT NULL AND customer_id IS NOT NULL AND status <> 'canceled' AND provider = ?2`,
  )
    .bind(userId, providerName(ctx.env))
    .first<{
      plan: 'plus' | 'pro' | 'immortality';
      cycle: 'monthly' | 'annual';
      status: 'active' | 'past_due';
      provider: 'stripe' | 'sandbox';
      customer_id: string;
      subscription_id: string;
      period_end: number | null;
      cancel_at_period_end: number;
    }>();
}

/**
 * POST /api/billing/portal: where the owner cancels (at the end of the paid period; nothing is deleted),
 * resumes, switches between monthly and annual, or changes the card. Stripe's customer portal in production,
 * the app's sandbox page locally; either way the change reaches us as the provider's signed event.
 */
export async function openBillingPortal(ctx: ServiceContext, user: Pick<User, 'id'>): Promise<{ url: string }> {
  const sub = await manageableSubscription(ctx, user.id);
  if (!sub) throw new AppError('CONFLICT', NOTHING_TO_MANAGE);
  return billingProvider(ctx.env).createPortal({ customerId: sub.customer_id, returnUrl: `${appOrigin(ctx.env)}/app/billing` });
}
