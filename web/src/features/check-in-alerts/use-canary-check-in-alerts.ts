import { canaryHealth } from '@afterword/worker/contracts/canary-health';
import { trpc } from '../../lib/trpc';
import { useSimulatedMiss } from '../canary/simulated-miss';
import { CANARY_STATUS_REFRESH_MS } from '../canary/queries';
import { effectiveDeadline } from './schedule';
import { useCheckInAlerts } from './use-check-in-alerts';

/** Used by the app shell: follows the earliest canary's deadline (and a test-mode simulated miss). */
export function useCanaryCheckInAlerts(): void {
  const status = trpc.canary.status.useQuery(undefined, { refetchInterval: CANARY_STATUS_REFRESH_MS });
  const simulatedAtMs = useSimulatedMiss();
  const data = status.data;
  const serverDeadlineMs =
    data?.last_check_in && data.interval_seconds
      ? canaryHealth(
          {
            lastCheckInMs: Date.parse(data.last_check_in),
            intervalSeconds: data.interval_seconds,
            schedule: data.schedule ?? null,
            pausedUntilMs: data.paused_until ? Date.parse(data.paused_until) : null,
          },
          0,
        ).deadlineMs
      : null;
  useCheckInAlerts(effectiveDeadline(serverDeadlineMs, simulatedAtMs), data?.missed ?? false);
}
