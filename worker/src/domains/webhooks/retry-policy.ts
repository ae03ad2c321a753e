import { QUEUE_MAX_DELAY_SECONDS } from '../messages/delivery/retry-policy';

/**
 * Standard Webhooks' suggested schedule (https://www.standardwebhooks.com, "Retry schedule"): after the first
 * attempt, again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h — 8 attempts over about 27.6 hours — for
 * endpoints created with `retry`. Each wait is a queue `delaySeconds` (at most 12 h). A `Retry-After` longer
 * than the scheduled wait is honoured, up to that 12 h cap.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
export const MAX_WEBHOOK_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;

/** Seconds to wait after failed attempt number `attempt` (1-based), or null when it was the last. */
export function webhookRetryDelaySeconds(attempt: number, retryAfterSeconds: number | null = null): number | null {
  if (attempt >= MAX_WEBHOOK_ATTEMPTS) return null;
  const scheduled = WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1]!;
  return Math.min(QUEUE_MAX_DELAY_SECONDS, Math.max(scheduled, retryAfterSeconds ?? 0));
}
