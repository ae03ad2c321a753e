import type { Bindings } from '../../../env';
import { isProduction } from '../../../env';
import { appOrigin } from '../../../lib/app-origin';
import { sandboxProvider } from './sandbox';
import { stripeProvider } from './stripe';
import type { BillingProvider } from './types';

export type { BillingProvider, CheckoutRequest } from './types';

/** The local webhook signing secret of the sandbox, when STRIPE_WEBHOOK_SECRET is unset (never in production). */
const LOCAL_WEBHOOK_SECRET = 'whsec_afterword_local_sandbox';

/** BILLING_PROVIDER: `stripe` or `sandbox` (the default outside production; production is always stripe). */
export function providerName(env: Bindings): 'stripe' | 'sandbox' {
  if (isProduction(env)) return 'stripe';
  return env.BILLING_PROVIDER === 'stripe' ? 'stripe' : 'sandbox';
}

export function billingProvider(env: Bindings): BillingProvider {
  return providerName(env) === 'stripe' ? stripeProvider(env) : sandboxProvider(appOrigin(env));
}

export const sandboxEnabled = (env: Bindings) => providerName(env) === 'sandbox';

/** The secret webhook events are signed with; null in production without one (every event is refused). */
export function webhookSecret(env: Bindings): string | null {
  if (env.STRIPE_WEBHOOK_SECRET) return env.STRIPE_WEBHOOK_SECRET;
  return isProduction(env) ? null : LOCAL_WEBHOOK_SECRET;
}
