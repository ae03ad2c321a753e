import { useEffect, useRef } from 'react';
import { setMissedTitleWarning } from '../../lib/document-title';
import { requestNotificationPermission, showCheckInNotification } from './browser-notification';
import { markFired, NO_ALERTS_FIRED, planCheckInAlerts, type FiredAlerts } from './schedule';

/**
 * Wires `planCheckInAlerts` to timers, notifications and the tab title. The timing decisions are
 * all in the pure module; this only re-plans when a timer fires or the deadline changes.
 *
 * @param deadlineMs the earliest canary's deadline (or a simulated miss), null with no canary
 * @param serverMissed the server's `missed` flag: the title warns while it is set, whatever the local clock says
 */
export function useCheckInAlerts(deadlineMs: number | null, serverMissed = false): void {
  // Survives re-renders and StrictMode's effect re-run, so an alert never shows twice for one deadline.
  const fired = useRef<FiredAlerts>(NO_ALERTS_FIRED);

  useEffect(() => {
    requestNotificationPermission();
  }, []);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      const plan = planCheckInAlerts(deadlineMs, Date.now(), fired.current);
      if (deadlineMs !== null && plan.due.length) {
        fired.current = markFired(fired.current, plan.due, deadlineMs);
        for (const kind of plan.due) showCheckInNotification(kind);
      }
      setMissedTitleWarning(plan.missed || serverMissed);
      if (plan.wakeInMs !== null) timer = setTimeout(run, plan.wakeInMs);
    };
    run();
    return () => clearTimeout(timer);
  }, [deadlineMs, serverMissed]);

  useEffect(() => () => setMissedTitleWarning(false), []);
}
