import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/**
 * One row per account that ever paid (docs/decisions/billing.md). `users.plan` is the plan whose limits
 * apply now; this row says what was bought and how it stands. Written only from verified provider
 * events (the webhook), never from a client's word.
 */
export const billingAccounts = sqliteTable('billing_accounts', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The plan bought; users.plan falls to free while a payment has failed, and this stays. */
  plan: text('plan', { enum: ['free', 'plus', 'pro', 'immortality'] }).notNull(),
  cycle: text('cycle', { enum: ['monthly', 'annual', 'lifetime', 'memorial_closeout'] }).notNull(),
  /** active | past_due (a payment failed) | canceled (ended; the account is back on Free). */
  status: text('status', { enum: ['active', 'past_due', 'canceled'] }).notNull(),
  provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
  customer_id: text('customer_id'),
  /** Subscriptions only (monthly, annual); null for one payment. */
  subscription_id: text('subscription_id'),
  /** When the cycle renews (subscription) or ends (memorial closeout); null for lifetime. */
  period_end: integer('period_end', { mode: 'timestamp_ms' }),
  /** The owner cancelled in the provider's portal: the plan runs to `period_end`, then the subscription ends. */
  cancel_at_period_end: integer('cancel_at_period_end', { mode: 'boolean' }).notNull().default(false),
  updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/** A checkout session opened for a person: what they were shown they would pay, and how it ended. */
export const checkoutSessions = sqliteTable(
  'checkout_sessions',
  {
    /** The provider's session id (`cs_…`). */
    id: text('id').primaryKey(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    plan: text('plan', { enum: ['plus', 'pro', 'immortality'] }).notNull(),
    cycle: text('cycle', { enum: ['monthly', 'annual', 'lifetime', 'memorial_closeout'] }).notNull(),
    amount_cents: integer('amount_cents').notNull(),
    /** 40 when the family continuation discount applies, else 0. */
    discount_percent: integer('discount_percent').notNull(),
    status: text('status', { enum: ['open', 'complete', 'declined', 'canceled'] }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    completed_at: integer('completed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('checkout_sessions_user_idx').on(t.user_id, t.created_at)],
);

/**
 * Provider events already applied, by event id: a redelivered or replayed event changes nothing. The
 * row is written in the same batch as the change it records.
 */
export const billingEvents = sqliteTable(
  'billing_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The account it touched, when it named one (deleted with the account). */
    user_id: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    processed_at: integer('processed_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('billing_events_user_idx').on(t.user_id)],
);
