import type { User } from '@afterword/db/schema';
import type { BillingView } from '../../contracts/billing';
import { isSubscriptionCycle, PLAN_LIMITS, type BillingCycle, type PlanId } from '../../contracts/plans';
import type { ServiceContext } from '../../env';
import { readMeters } from './meters';
import { manageableSubscription } from './portal';
import { providerName } from './providers';

/** GET /api/billing: the plan whose limits apply, what was bought and how it stands, and every meter. */
export async function readBilling(ctx: ServiceContext, user: Pick<User, 'id' | 'plan'>): Promise<BillingView> {
  const account = await ctx.env.DB.prepare('SELECT plan, cycle, status, period_end, cancel_at_period_end FROM billing_accounts WHERE user_id = ?1')
    .bind(user.id)
    .first<{ plan: PlanId; cycle: BillingCycle; status: 'active' | 'past_due' | 'canceled'; period_end: number | null; cancel_at_period_end: number }>();
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const renews = account && account.status !== 'canceled' && isSubscriptionCycle(account.cycle);
  return {
    plan: user.plan,
    plan_name: PLAN_LIMITS[user.plan].name,
    purchased_plan: account?.plan ?? null,
    cycle: account?.cycle ?? null,
    status: account?.status ?? 'free',
    renews_at: renews ? iso(account.period_end) : null,
    ends_at: account && !renews ? iso(account.period_end) : null,
    provider: providerName(ctx.env),
    cancel_at_period_end: Boolean(account?.cancel_at_period_end) && account?.status !== 'canceled',
    can_manage: (await manageableSubscription(ctx, user.id)) !== null,
    meters: await readMeters(ctx, user),
  };
}
