import type { BillingProvider } from './types';

/**
 * The local provider (docs/decisions/billing.md): a page of the app plays Stripe's hosted checkout —
 * pay, decline or cancel — and then posts a Stripe-shaped, correctly signed event to the same webhook
 * path (sandbox-events.ts). Never offered in production.
 */
export function sandboxProvider(origin: string): BillingProvider {
  return {
    name: 'sandbox',
    async createCheckout() {
      const id = `cs_sandbox_${crypto.randomUUID().replaceAll('-', '')}`;
      return { id, url: `${origin}/app/billing/sandbox/${id}` };
    },
    // Nothing is ever charged by the sandbox, so nothing to stop.
    async cancelSubscription() {},
    // The app's own page plays Stripe's customer portal (sandbox-portal.ts).
    async createPortal() {
      return { url: `${origin}/app/billing/portal` };
    },
  };
}
