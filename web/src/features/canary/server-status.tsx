import type { TCanaryStatus } from '@afterword/worker/contracts/canary';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Skeleton } from '../../components/skeleton';
import { formatInterval } from './format';
import { formatDateTime } from '../../lib/format-time';

interface ServerStatusProps {
  status: TCanaryStatus | undefined;
  loading: boolean;
  /** Test mode: a locally simulated miss shows as Missed (nothing was sent to the server). */
  simulatedMiss: boolean;
  onCheckIn: () => void;
  checkInPending: boolean;
}

/** SPEC section 4: the Canary Status page shows OK or Missed from the server's `missed` flag. */
export function ServerStatus({ status, loading, simulatedMiss, onCheckIn, checkInPending }: ServerStatusProps) {
  if (loading) return <Skeleton lines={2} label="Loading status" />;
  const missed = Boolean(status?.missed) || simulatedMiss;
  return (
    <div className="server-status">
      <p className="server-status__line">
        Status: <Badge tone={missed ? 'missed' : 'active'}>{missed ? 'Missed' : 'OK'}</Badge>
        {simulatedMiss && !status?.missed ? <span className="muted"> (simulated in this browser)</span> : null}
      </p>
      {status?.last_check_in ? (
        <dl className="facts">
          <div>
            <dt>Last check-in</dt>
            <dd>
              <time dateTime={status.last_check_in}>{formatDateTime(status.last_check_in)}</time>
            </dd>
          </div>
          {status.interval_seconds ? (
            <div>
              <dt>Interval</dt>
              <dd>{formatInterval(status.interval_seconds)}</dd>
            </div>
          ) : null}
          {status.deadline ? (
            <div>
              <dt>Next deadline</dt>
              <dd>
                <time dateTime={status.deadline}>{formatDateTime(status.deadline)}</time>
              </dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p className="muted">No canary yet, so there is nothing to miss. Create one below.</p>
      )}
      <Button onClick={onCheckIn} disabled={checkInPending}>
        Check in now
      </Button>
    </div>
  );
}
