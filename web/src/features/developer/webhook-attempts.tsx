import { QueryState } from '../../components/query-state';
import { trpc } from '../../lib/trpc';
import { AttemptsLog } from './attempts-log';
import { ATTEMPTS_REFRESH_MS, ATTEMPTS_SHOWN } from './attempts';
import type { WebhookEndpoint } from './types';

/** One endpoint's latest attempts, re-read while retries may still land — not while the endpoint is being deleted. */
export function WebhookAttempts({ webhook, deleting = false }: { webhook: WebhookEndpoint; deleting?: boolean }) {
  const attempts = trpc.webhooks.attempts.useQuery({ id: webhook.id, limit: ATTEMPTS_SHOWN }, { refetchInterval: ATTEMPTS_REFRESH_MS, enabled: !deleting });
  return (
    <QueryState query={attempts} loading={`Loading delivery attempts to ${webhook.url}`} failed="The delivery attempts could not be loaded." lines={2}>
      {(data) => <AttemptsLog attempts={data} label={webhook.url} />}
    </QueryState>
  );
}
