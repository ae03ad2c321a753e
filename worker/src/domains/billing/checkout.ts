import type { User } from '@afterword/db/schema';
import type { CheckoutQuery, CheckoutQuote } from '../../contracts/billing';
import { formatBytes } from '../../contracts/attachments';
import {
  chargeTerms,
  cyclePrice,
  discountedCents,
  FAMILY_CONTINUATION_DISCOUNT_PERCENT,
  PLAN_LIMITS,
  planPrices,
  type PlanLimits,
} from '../../contracts/plans';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError } from '../../lib/errors';
import { billingProvider } from './providers';

/**
 * Family continuation (docs/product.md "Plans and billing", 40 %; docs/decisions/billing.md): the buyer carries
 * on the legacy of someone whose death is confirmed on Afterword — they were that person's active guardian, or
 * received a released message from them. Checked on the server at every quote; never a box the buyer ticks.
 */
async function isFamilyContinuation(ctx: ServiceContext, userId: string): Promise<boolean> {
  const row = await ctx.env.DB.prepare(
    `SELECT 1 AS yes FROM users u WHERE u.death_confirmed_at IS NOT NULL AND u.id <> ?1 AND (
       EXISTS (SELECT 1 FROM guardians g WHERE g.owner_id = u.id AND g.guardian_user_id = ?1 AND g.status = 'active')
       OR EXISTS (SELECT 1 FROM messages m WHERE m.sender_id = u.id AND m.recipient_user_id = ?1 AND m.released_at IS NOT NULL)
     ) LIMIT 1`,
  )
    .bind(userId)
    .first<{ yes: number }>();
  return row !== null;
}

const unlimited = (n: number, unit: (n: number) => string) => (Number.isFinite(n) ? unit(n) : 'unlimited');

function changes(from: PlanLimits, to: PlanLimits): string[] {
  const rows: [string, (l: PlanLimits) => string][] = [
    ['Canaries', (l) => unlimited(l.canaries, String)],
    ['Storage', (l) => formatBytes(l.storageBytes)],
    ['Voice minutes per session', (l) => String(l.voiceMinutes)],
    ['API calls a month', (l) => l.apiCallsPerMonth.toLocaleString('en-US')],
  ];
  return rows.map(([label, f]) => (f(from) === f(to) ? `${label}: ${f(to)} (unchanged)` : `${label}: ${f(from)} → ${f(to)}`));
}

/** What a checkout of `plan` for `cycle` charges this person, and what it changes: the page shows it before paying. */
export async function quoteCheckout(ctx: ServiceContext, user: Pick<User, 'id' | 'plan'>, q: CheckoutQuery): Promise<CheckoutQuote> {
  const prices = planPrices(ctx.env.PRICING_OVERRIDES)[q.plan];
  const price = cyclePrice(prices, q.cycle);
  if (price === null || price <= 0) throw new AppError('UNPROCESSABLE', `The ${PLAN_LIMITS[q.plan].name} plan is not offered ${q.cycle.replace('_', ' ')}.`);
  const discount = (await isFamilyContinuation(ctx, user.id)) ? FAMILY_CONTINUATION_DISCOUNT_PERCENT : 0;
  const listCents = Math.round(price * 100);
  return {
    plan: q.plan,
    plan_name: PLAN_LIMITS[q.plan].name,
    cycle: q.cycle,
    list_cents: listCents,
    amount_cents: discountedCents(price, discount),
    discount_percent: discount,
    ...chargeTerms(prices, q.cycle),
    changes: changes(PLAN_LIMITS[user.plan], PLAN_LIMITS[q.plan]),
    current_plan: user.plan,
  };
}

/** Opens a checkout session with the provider and remembers what it was quoted at. */
export async function createCheckout(ctx: ServiceContext, user: Pick<User, 'id' | 'plan' | 'email'>, q: CheckoutQuery) {
  const quote = await quoteCheckout(ctx, user, q);
  const provider = billingProvider(ctx.env);
  const origin = appOrigin(ctx.env);
  const session = await provider.createCheckout({
    userId: user.id,
    email: user.email,
    plan: quote.plan,
    planName: quote.plan_name,
    cycle: quote.cycle,
    listCents: quote.list_cents,
    discountPercent: quote.discount_percent,
    interval: quote.interval,
    successUrl: `${origin}/app/billing?checkout=success`,
    cancelUrl: `${origin}/checkout?plan=${quote.plan}&cycle=${quote.cycle}`,
  });
  await ctx.env.DB.prepare(
    `INSERT INTO checkout_sessions (id, user_id, provider, plan, cycle, amount_cents, discount_percent, status, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'open', ?8)`,
  )
    .bind(session.id, user.id, provider.name, quote.plan, quote.cycle, quote.amount_cents, quote.discount_percent, ctx.now().getTime())
    .run();
  return session;
}
