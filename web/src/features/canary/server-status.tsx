import type { TCanaryStatus } from '@afterword/worker/contracts/canary';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { scheduleWords } from '@afterword/worker/contracts/canary-schedule';
import { formatInterval } from './format';
import { formatDateTime } from '../../lib/format-time';

interface ServerStatusProps {
  /** Loaded: a failed or pending read never reaches here (the page shows QueryState's states). */
  status: TCanaryStatus;
  /** The dead-man's switch is set: a check-in renews it even without a canary. */
  deadmanActive: boolean;
  /** Test mode: a locally simulated miss shows as Missed (nothing was sent to the server). */
  simulatedMiss: boolean;
  onCheckIn: () => void;
  checkInPending: boolean;
}

/**
 * docs/product.md "Canaries and check-ins": the Canary Status page shows OK or Missed from the server's
 * `missed` flag.
 */
export function ServerStatus({ status, deadmanActive, simulatedMiss, onCheckIn, checkInPending }: ServerStatusProps) {
  const hasCanary = status.last_check_in !== null;
  if (!hasCanary && !deadmanActive) {
    // Nothing to check in and nothing to miss: no OK badge and no check-in that would only pretend.
    return (
      <div className="server-status">
        <p className="server-status__line">No canary yet, so there is nothing to check in or miss. Create one below.</p>
      </div>
    );
  }
  const missed = status.missed || simulatedMiss;
  return (
    <div className="server-status">
      <p className="server-status__line">
        Status: <Badge tone={missed ? 'missed' : 'active'}>{missed ? 'Missed' : 'OK'}</Badge>
        {simulatedMiss && !status.missed ? <span className="muted"> (simulated in this browser)</span> : null}
      </p>
      {status.last_check_in ? (
        <dl className="facts">
          <div>
            <dt>Last check-in</dt>
            <dd>
              <time dateTime={status.last_check_in}>{formatDateTime(status.last_check_in)}</time>
            </dd>
          </div>
          {status.schedule ? (
            <div>
              <dt>Schedule</dt>
              <dd>{scheduleWords(status.schedule)}</dd>
            </div>
          ) : status.interval_seconds ? (
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
        <p className="muted">No canary yet. A check-in renews your dead-man's switch.</p>
      )}
      <Button onClick={onCheckIn} disabled={checkInPending}>
        Check in now
      </Button>
    </div>
  );
}
