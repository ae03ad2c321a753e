import type { User } from '@afterword/db/schema';
import type { SANDBOX_PORTAL_ACTIONS } from '../../contracts/billing';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { periodEnd, receiveWebhook } from './apply-event';
import { manageableSubscription, NOTHING_TO_MANAGE } from './portal';
import { sandboxEnabled } from './providers';
import { signSandboxEvent } from './sandbox-events';

type Action = (typeof SANDBOX_PORTAL_ACTIONS)[number];

const subscriptionObject = (
  sub: NonNullable<Awaited<ReturnType<typeof manageableSubscription>>>,
  userId: string,
  o: { status: string; cancel: boolean; cycle: 'monthly' | 'annual'; end: number | null },
) => {
  const end = o.end === null ? null : Math.floor(o.end / 1000);
  return {
    id: sub.subscription_id,
    object: 'subscription',
    customer: sub.customer_id,
    status: o.status,
    cancel_at_period_end: o.cancel,
    current_period_end: end,
    items: {
      object: 'list',
      data: [{ object: 'subscription_item', current_period_end: end, price: { recurring: { interval: o.cycle === 'annual' ? 'year' : 'month' } } }],
    },
    metadata: { user_id: userId, plan: sub.plan, cycle: o.cycle },
  };
};

/**
 * POST /api/billing/sandbox-portal/{action}: the local provider plays Stripe's customer portal. Like the
 * sandbox checkout, it answers the event Stripe would send (customer.subscription.updated, signed as Stripe
 * signs) and the page posts it to POST /api/billing/webhook, where the change is made:
 * - cancel: `cancel_at_period_end` — the plan runs to the end of the paid period, then ends;
 * - resume: takes a cancellation back before that;
 * - switch_cycle: monthly ↔ annual, a new period from now (Stripe resets the billing anchor on an interval change);
 * - update_card: a card that pays brings a subscription whose payment failed back to active.
 */
export async function playSandboxPortal(ctx: ServiceContext, user: Pick<User, 'id'>, action: Action) {
  if (!sandboxEnabled(ctx.env)) throw new AppError('NOT_FOUND', 'Not found');
  const sub = await manageableSubscription(ctx, user.id);
  if (!sub) throw new AppError('CONFLICT', NOTHING_TO_MANAGE);
  const now = ctx.now().getTime();
  let cycle = sub.cycle;
  let end = sub.period_end;
  let cancel = Boolean(sub.cancel_at_period_end);
  let status: string = sub.status;
  if (action === 'cancel') cancel = true;
  if (action === 'resume') cancel = false;
  if (action === 'switch_cycle') {
    cycle = cycle === 'annual' ? 'monthly' : 'annual';
    end = periodEnd(cycle, sub.plan, now, ctx.env.PRICING_OVERRIDES);
  }
  if (action === 'update_card') status = 'active';
  const created = Math.floor(now / 1000);
  const event = {
    id: `evt_sandbox_portal_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: 'customer.subscription.updated',
    created,
    livemode: false,
    data: { object: subscriptionObject(sub, user.id, { status, cancel, cycle, end }) },
  };
  return signSandboxEvent(ctx, event);
}

/**
 * The sandbox stands in for Stripe at the end of a cancelled period too: the every-minute cron sends each
 * sandbox subscription cancelled at its period's end, once that end has passed, the customer.subscription.deleted
 * Stripe would send, through the same webhook code. Returns how many ended.
 */
export async function endLapsedSandboxSubscriptions(ctx: ServiceContext): Promise<number> {
  if (!sandboxEnabled(ctx.env)) return 0;
  const now = ctx.now().getTime();
  const { results } = await ctx.env.DB.prepare(
    `SELECT user_id FROM billing_accounts WHERE provider = 'sandbox' AND cancel_at_period_end = 1 AND status <> 'canceled'
     AND subscription_id IS NOT NULL AND customer_id IS NOT NULL AND period_end <= ?1 LIMIT 100`,
  )
    .bind(now)
    .all<{ user_id: string }>();
  let ended = 0;
  for (const { user_id } of results) {
    const sub = await manageableSubscription(ctx, user_id);
    if (!sub) continue;
    const created = Math.floor(now / 1000);
    const event = {
      id: `evt_sandbox_end_${sub.subscription_id}`,
      object: 'event',
      type: 'customer.subscription.deleted',
      created,
      livemode: false,
      data: { object: subscriptionObject(sub, user_id, { status: 'canceled', cancel: true, cycle: sub.cycle, end: sub.period_end }) },
    };
    const { payload, signature } = await signSandboxEvent(ctx, event);
    try {
      await receiveWebhook(ctx, payload, signature);
      ended++;
    } catch (err) {
      log.warn('sandbox subscription end not applied; tried again next minute', { error: String(err) });
    }
  }
  return ended;
}
