import { Skeleton } from '../../components/skeleton';
import { trpc } from '../../lib/trpc';
import { AttemptsLog } from './attempts-log';
import { ATTEMPTS_REFRESH_MS, ATTEMPTS_SHOWN } from './queries';
import type { WebhookEndpoint } from './types';

/** One endpoint's latest attempts, re-read while retries may still land. */
export function WebhookAttempts({ webhook }: { webhook: WebhookEndpoint }) {
  const attempts = trpc.webhooks.attempts.useQuery({ id: webhook.id, limit: ATTEMPTS_SHOWN }, { refetchInterval: ATTEMPTS_REFRESH_MS });
  if (attempts.isPending) return <Skeleton lines={2} label={`Loading delivery attempts to ${webhook.url}`} />;
  if (attempts.isError) return <p className="muted">The delivery attempts could not be loaded. Reload the page to try again.</p>;
  return <AttemptsLog attempts={attempts.data} label={webhook.url} />;
}
