import type { User } from '@afterword/db/schema';
import { PLAN_LIMITS, type PlanId } from '../../contracts/plans';

/**
 * The plan's monthly API-call quota (docs/product.md "Plans and billing"), counted per user over UTC calendar
 * months in the user's ApiUsageMeter (copied to api_usage). Only accepted API-key calls count; sessions are not
 * metered.
 */
export const monthKey = (now: Date) => now.toISOString().slice(0, 7);

/** 00:00 UTC on the first day of the next month: when the quota resets. */
export const nextMonthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

export const monthlyApiCalls = (plan: User['plan']) => (PLAN_LIMITS[plan as PlanId] ?? PLAN_LIMITS.free).apiCallsPerMonth;

export interface QuotaState {
  limit: number;
  /** Calls counted this month, including this one when it was accepted. */
  used: number;
  resetAt: Date;
}

/** X-RateLimit-* on every API-key response: the budget left this month and when it resets (epoch seconds). */
export function rateLimitHeaders(q: QuotaState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(q.limit),
    'X-RateLimit-Remaining': String(Math.max(0, q.limit - q.used)),
    'X-RateLimit-Reset': String(Math.floor(q.resetAt.getTime() / 1000)),
  };
}

/** Retry-After of a 429: whole seconds until the next UTC month (at least 1). */
export const retryAfterSeconds = (now: Date, resetAt: Date) => Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000));
