/**
 * Value lists shared by the tables and the API contracts. No imports: the web app's forms read them
 * through the contracts, and importing the table definitions would pull drizzle into the browser bundle.
 */
export const MESSAGE_STATUSES = ['scheduled', 'armed', 'releasing', 'delivered', 'failed', 'cancelled'] as const;
export const DELIVERY_METHODS = ['email', 'sms', 'call', 'push'] as const;
export const TRIGGER_TYPES = ['missed_checkins', 'fixed_date', 'delay_after_death'] as const;
export const DELIVERY_STATUSES = ['pending', 'sending', 'retrying', 'delivered', 'failed'] as const;
export const NOTIFY_METHODS = ['email', 'sms', 'push'] as const;
