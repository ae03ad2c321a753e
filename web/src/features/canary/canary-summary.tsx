import type { TCanaryStatus } from '@afterword/worker/contracts/canary';
import { Link } from '@tanstack/react-router';
import { HealthBadge } from '../../components/badge';
import { Button, buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { CountdownBar } from './countdown-bar';
import { formatInterval, formatRemaining } from './format';
import { formatDateTime, formatRelative } from '../../lib/format-time';
import { countdownView } from './health';
import { scheduleWords } from '@afterword/worker/contracts/canary-schedule';

interface CanarySummaryProps {
  /** Loaded: the page shows the loading and error states (components/query-state.tsx). */
  status: TCanaryStatus;
  /** People have left this user messages: without a canary, that is the news, not the missing canary. */
  hasReceived?: boolean;
  nowMs: number;
  simulatedMiss: boolean;
  onHeartbeat: () => void;
  heartbeatPending: boolean;
}

/** The dashboard's Canary Summary body: the earliest canary's countdown, health and the Heartbeat button. */
export function CanarySummary({ status, hasReceived = false, nowMs, simulatedMiss, onHeartbeat, heartbeatPending }: CanarySummaryProps) {
  const view =
    status.last_check_in && status.interval_seconds ? countdownView(status.last_check_in, status.interval_seconds, nowMs, simulatedMiss, status) : null;
  if (!view || !status.last_check_in || !status.interval_seconds) {
    if (hasReceived) {
      return (
        <EmptyState
          title="No canary of your own."
          action={
            <Link to="/app/canary-status" className={buttonClass('secondary')}>
              Create a canary on Canary Status
            </Link>
          }
        >
          <p>You need one only to leave messages yourself: it is the regular check-in that keeps them held back.</p>
        </EmptyState>
      );
    }
    return (
      <EmptyState
        title="You have no canary yet."
        action={
          <Link to="/app/canary-status" className={buttonClass('primary')}>
            Create a canary on Canary Status
          </Link>
        }
      >
        <p>A canary is the regular check-in that keeps your messages held back. Create one to start the countdown.</p>
      </EmptyState>
    );
  }
  return (
    <div className="canary-summary">
      <dl className="facts">
        <div>
          <dt>Health</dt>
          <dd>
            <HealthBadge health={view.health} />
            {simulatedMiss ? <span className="muted"> (simulated)</span> : null}
          </dd>
        </div>
        <div>
          <dt>Time remaining</dt>
          <dd className="canary-summary__remaining">{view.health === 'Missed' ? 'None. The deadline has passed.' : formatRemaining(view.remainingMs)}</dd>
        </div>
        <div>
          <dt>Last check-in</dt>
          <dd>
            <time dateTime={status.last_check_in}>{formatDateTime(status.last_check_in)}</time>{' '}
            <span className="muted">({formatRelative(status.last_check_in, nowMs)})</span>
          </dd>
        </div>
        <div>
          <dt>{status.schedule ? 'Schedule' : 'Interval'}</dt>
          <dd>{status.schedule ? scheduleWords(status.schedule) : formatInterval(status.interval_seconds)}</dd>
        </div>
        <div>
          <dt>Deadline</dt>
          <dd>
            <time dateTime={new Date(view.deadlineMs).toISOString()}>{formatDateTime(view.deadlineMs)}</time>
          </dd>
        </div>
      </dl>
      <CountdownBar view={view} />
      <Button onClick={onHeartbeat} disabled={heartbeatPending} aria-describedby="heartbeat-hint">
        Heartbeat
      </Button>
      <p id="heartbeat-hint" className="muted canary-summary__hint">
        Checks in every canary you have and restarts their countdowns.
      </p>
    </div>
  );
}
