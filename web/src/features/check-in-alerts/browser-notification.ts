import { ALERT_TEXT, type AlertKind } from './schedule';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;

/** docs/product.md "Canaries and check-ins": ask once, on load, while the browser has no answer yet. */
export function requestNotificationPermission(): void {
  if (!supported() || Notification.permission !== 'default') return;
  try {
    void Promise.resolve(Notification.requestPermission()).catch(() => undefined);
  } catch {
    // Old Safari takes a callback and may throw on the promise form; the request is best effort.
  }
}

/** Shows the alert as a system notification when allowed; returns whether it was shown. */
export function showCheckInNotification(kind: AlertKind): boolean {
  if (!supported() || Notification.permission !== 'granted') return false;
  const { title, body } = ALERT_TEXT[kind];
  try {
    new Notification(title, { body, tag: `afterword-check-in-${kind}` });
    return true;
  } catch {
    // Some mobile browsers only allow notifications from a service worker.
    return false;
  }
}
