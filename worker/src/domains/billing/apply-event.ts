import type { PlanId } from '../../contracts/plans';
import { PLAN_LIMITS, planPrices, type BillingCycle } from '../../contracts/plans';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { cancelAtProvider, runningSubscriptionId } from './end-billing';
import { webhookSecret } from './providers';
import { verifyStripeSignature } from './stripe-signature';

/** The part of a Stripe event this reads (docs.stripe.com/api/events/object). */
export interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
] as const;

type Outcome = { received: true; applied: boolean; duplicate: boolean; ignored: boolean };
const answer = (o: Partial<Outcome>): Outcome => ({ received: true, applied: false, duplicate: false, ignored: false, ...o });

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** The end of the period a cycle buys, from `start` (ms); null for lifetime (it does not end). */
export function periodEnd(cycle: BillingCycle, plan: PlanId, start: number, pricesJson?: string): number | null {
  const d = new Date(start);
  if (cycle === 'monthly') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
  if (cycle === 'annual') return Date.UTC(d.getUTCFullYear() + 1, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
  if (cycle === 'memorial_closeout') {
    const years = planPrices(pricesJson)[plan].closeout?.years ?? 0;
    return Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
  }
  return null;
}

/**
 * POST /api/billing/webhook: verifies the Stripe-Signature over the raw body (400 otherwise), then applies
 * the event once per event id — the id is recorded in the same request, before its change, and removed
 * again if the change fails so the provider's retry can apply it. Unknown events are acknowledged and
 * ignored. Nothing here deletes data: a failed or ended payment only lowers the limits for new things.
 */
export async function receiveWebhook(ctx: ServiceContext, raw: string, signature: string | undefined): Promise<Outcome> {
  const secret = webhookSecret(ctx.env);
  if (!secret) throw new AppError('BAD_REQUEST', 'Invalid Stripe-Signature: no webhook signing secret is configured');
  await verifyStripeSignature(secret, raw, signature, ctx.now().getTime());
  let event: StripeEvent;
  try {
    event = JSON.parse(raw) as StripeEvent;
  } catch {
    throw new AppError('BAD_REQUEST', 'The event is not JSON');
  }
  if (!str(event?.id) || !str(event?.type) || typeof event.data?.object !== 'object' || event.data.object === null) {
    throw new AppError('BAD_REQUEST', 'The event has no id, type or data.object');
  }
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return answer({ ignored: true });

  const now = ctx.now().getTime();
  const userId = await accountOf(ctx, event);
  const recorded = await ctx.env.DB.prepare('INSERT INTO billing_events (id, type, user_id, processed_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO NOTHING')
    .bind(event.id, event.type, userId, now)
    .run();
  if (recorded.meta.changes === 0) return answer({ duplicate: true });
  if (!userId) {
    log.warn('billing event names no account', { event_id: event.id, type: event.type });
    return answer({ ignored: true });
  }
  try {
    await applyEvent(ctx, event, userId, now);
  } catch (err) {
    await ctx.env.DB.prepare('DELETE FROM billing_events WHERE id = ?1').bind(event.id).run();
    throw err;
  }
  return answer({ applied: true });
}

/** The account an event is about: through our checkout session, or the subscription / customer on record. */
async function accountOf(ctx: ServiceContext, event: StripeEvent): Promise<string | null> {
  const o = event.data.object;
  const db = ctx.env.DB;
  if (event.type.startsWith('checkout.session.')) {
    const row = await db.prepare('SELECT user_id FROM checkout_sessions WHERE id = ?1').bind(str(o.id)).first<{ user_id: string }>();
    return row?.user_id ?? null;
  }
  const subscription = event.type.startsWith('customer.subscription.') ? str(o.id) : invoiceSubscription(o);
  if (subscription) {
    const row = await db.prepare('SELECT user_id FROM billing_accounts WHERE subscription_id = ?1').bind(subscription).first<{ user_id: string }>();
    if (row) return row.user_id;
  }
  const customer = str(o.customer);
  if (!customer || event.type.startsWith('customer.subscription.')) return null;
  const row = await db.prepare('SELECT user_id FROM billing_accounts WHERE customer_id = ?1').bind(customer).first<{ user_id: string }>();
  return row?.user_id ?? null;
}

/** An invoice's subscription: `subscription` (older API versions) or `parent.subscription_details.subscription`. */
function invoiceSubscription(o: Record<string, unknown>): string | null {
  const parent = o.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  return str(o.subscription) ?? str(parent?.subscription_details?.subscription);
}

async function applyEvent(ctx: ServiceContext, event: StripeEvent, userId: string, now: number) {
  const o = event.data.object;
  const db = ctx.env.DB;
  switch (event.type) {
    // A delayed payment method (a bank debit) completes the session unpaid, then succeeds later.
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      if (o.payment_status !== 'paid' && o.payment_status !== 'no_payment_required') return;
      const session = await db
        .prepare("SELECT plan, cycle, provider FROM checkout_sessions WHERE id = ?1 AND status = 'open'")
        .bind(str(o.id))
        .first<{ plan: PlanId; cycle: BillingCycle; provider: 'stripe' | 'sandbox' }>();
      if (!session) return;
      const end = periodEnd(session.cycle, session.plan, now, ctx.env.PRICING_OVERRIDES);
      // A plan bought while another subscription runs replaces it: the old one is canceled at the provider
      // below, or the person would pay for both (its later `customer.subscription.deleted` matches nothing).
      const previous = await runningSubscriptionId(ctx, userId);
      await db.batch([
        db.prepare("UPDATE checkout_sessions SET status = 'complete', completed_at = ?2 WHERE id = ?1").bind(str(o.id), now),
        db
          .prepare(
            `INSERT INTO billing_accounts (user_id, plan, cycle, status, provider, customer_id, subscription_id, period_end, updated_at)
             VALUES (?1, ?2, ?3, 'active', ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (user_id) DO UPDATE SET plan = ?2, cycle = ?3, status = 'active', provider = ?4,
               customer_id = COALESCE(?5, customer_id), subscription_id = ?6, period_end = ?7, cancel_at_period_end = 0, updated_at = ?8`,
          )
          .bind(userId, session.plan, session.cycle, session.provider, str(o.customer), str(o.subscription), end, now),
        db.prepare('UPDATE users SET plan = ?2, updated_at = ?3 WHERE id = ?1').bind(userId, session.plan, now),
      ]);
      if (previous && previous !== str(o.subscription))
        await cancelAtProvider(ctx, userId, previous, 'replaced subscription not canceled at the provider; cancel it by hand');
      return;
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const status = event.type === 'checkout.session.expired' ? 'canceled' : 'declined';
      await db.prepare("UPDATE checkout_sessions SET status = ?2, completed_at = ?3 WHERE id = ?1 AND status = 'open'").bind(str(o.id), status, now).run();
      return;
    }
    case 'customer.subscription.updated': {
      const s = String(o.status);
      const standing = s === 'active' || s === 'trialing' ? 'active' : s === 'canceled' || s === 'incomplete_expired' ? 'canceled' : 'past_due';
      const items = o.items as { data?: { current_period_end?: number; price?: { recurring?: { interval?: string } } }[] } | undefined;
      const endSeconds = (o.current_period_end as number | undefined) ?? items?.data?.[0]?.current_period_end;
      const end = typeof endSeconds === 'number' ? endSeconds * 1000 : null;
      // The portal's changes: the cycle (a price with another interval) and a cancellation at the period's end
      // (`cancel_at_period_end`, or a `cancel_at` time on newer API versions).
      const interval = items?.data?.[0]?.price?.recurring?.interval;
      const cycle = interval === 'year' ? 'annual' : interval === 'month' ? 'monthly' : null;
      const cancel = o.cancel_at_period_end === true || typeof o.cancel_at === 'number' ? 1 : o.cancel_at_period_end === false ? 0 : null;
      await db.batch([
        db
          .prepare(
            `UPDATE billing_accounts SET status = ?3, period_end = COALESCE(?4, period_end), updated_at = ?5,
               cycle = COALESCE(?6, cycle), cancel_at_period_end = COALESCE(?7, cancel_at_period_end)
             WHERE user_id = ?1 AND subscription_id = ?2`,
          )
          .bind(userId, str(o.id), standing, end, now, cycle, cancel),
        db
          .prepare(
            `UPDATE users SET plan = CASE WHEN ?2 = 'active' THEN (SELECT plan FROM billing_accounts WHERE user_id = ?1) ELSE 'free' END, updated_at = ?3
             WHERE id = ?1 AND EXISTS (SELECT 1 FROM billing_accounts WHERE user_id = ?1 AND subscription_id = ?4)`,
          )
          .bind(userId, standing, now, str(o.id)),
      ]);
      return;
    }
    case 'customer.subscription.deleted': {
      await endPaidLimits(ctx, userId, now, 'canceled', 'AND subscription_id = ?4', [str(o.id)], {
        subject: 'Your Afterword subscription has ended',
        text: (plan) =>
          `Your ${plan} subscription has ended, and the account is on the Free plan. Nothing is deleted: everything you made stays and keeps working, and anything past the Free plan's limits stays too — only creating more is refused. You can choose a plan again at any time.`,
      });
      return;
    }
    case 'invoice.payment_failed': {
      await endPaidLimits(ctx, userId, now, 'past_due', "AND status = 'active'", [], {
        subject: 'Your Afterword payment did not go through',
        text: (plan) =>
          `We could not take the payment for your ${plan} plan. Nothing is deleted, and nothing ever will be for a missed payment: your messages, canaries, files and recipients all stay and keep working. Until a payment goes through, creating more than the Free plan allows is refused. Update your payment details or choose a plan on the billing page.`,
      });
      return;
    }
  }
}

/**
 * A payment failed or a subscription ended: the account's limits fall to Free (users.plan) while the
 * bought plan stays on record, and the owner is told on their channels through the owner-notice outbox —
 * all in one batch, the notice written only when the standing changed. Nothing is deleted.
 */
async function endPaidLimits(
  ctx: ServiceContext,
  userId: string,
  now: number,
  status: 'past_due' | 'canceled',
  guard: string,
  guardParams: unknown[],
  notice: { subject: string; text: (planName: string) => string },
) {
  const db = ctx.env.DB;
  const account = await db.prepare('SELECT plan FROM billing_accounts WHERE user_id = ?1').bind(userId).first<{ plan: PlanId }>();
  if (!account) return;
  const noticeId = crypto.randomUUID();
  const [changed] = await db.batch([
    db
      .prepare(`UPDATE billing_accounts SET status = ?2, updated_at = ?3 WHERE user_id = ?1 AND status <> ?2 ${guard}`)
      .bind(userId, status, now, ...guardParams),
    db.prepare("UPDATE users SET plan = 'free', updated_at = ?2 WHERE id = ?1 AND changes() = 1").bind(userId, now),
    insertOwnerNotice(
      db,
      {
        id: noticeId,
        userId,
        kind: status === 'past_due' ? 'billing_payment_failed' : 'billing_subscription_ended',
        subject: notice.subject,
        text: notice.text(PLAN_LIMITS[account.plan].name),
        link: `${appOrigin(ctx.env)}/app/billing`,
        at: now,
      },
      // The users UPDATE before it changed a row only when the standing did.
      { sql: 'WHERE changes() = 1' },
    ),
  ]);
  if ((changed?.meta.changes ?? 0) === 1) await enqueueOwnerNotice(ctx, noticeId);
}
