import type { BillingCycle, PaidPlanId } from '../../../contracts/plans';

/** What the checkout service asks a provider for: one session for one person, priced by us. */
export interface CheckoutRequest {
  userId: string;
  email: string;
  plan: PaidPlanId;
  planName: string;
  cycle: BillingCycle;
  /** The list price; a discount is applied by the provider (a coupon) so its receipts show it. */
  listCents: number;
  discountPercent: number;
  interval: 'month' | 'year' | null;
  successUrl: string;
  cancelUrl: string;
}

export interface BillingProvider {
  name: 'stripe' | 'sandbox';
  createCheckout(req: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** Ends a subscription at once (the account is being erased): no further charge. */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /** A page where the customer cancels, resumes, changes cycle or card; it comes back to `returnUrl`. */
  createPortal(req: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
}
