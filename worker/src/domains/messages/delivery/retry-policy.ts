/**
 * Retries of a delivery (docs/server-rules.md "Messages, rules and release"; docs/decisions/release-engine.md;
 * the rule: at least 5 attempts over at least an hour): six attempts, waiting 1, 5, 15, 30 and 60 minutes
 * between them — the last one about 1 h 51 min after the first. Only failures the adapter calls retryable are
 * retried.
 */
export const RETRY_DELAYS_SECONDS = [60, 300, 900, 1800, 3600] as const;
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Seconds to wait after failed attempt number `attempt` (1-based), or null when it was the last. */
export function retryDelaySeconds(attempt: number): number | null {
  return attempt < MAX_DELIVERY_ATTEMPTS ? RETRY_DELAYS_SECONDS[attempt - 1]! : null;
}

/** Cloudflare Queues delay a message by at most 12 hours. */
export const QUEUE_MAX_DELAY_SECONDS = 43_200;
