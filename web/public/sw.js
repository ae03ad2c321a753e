// Afterword's service worker: Web Push only (no fetch handler, so pages and the API are never cached
// or intercepted). Registered from /app/notifications when the user enables push on this device.
// A push payload is JSON {title, body, url}; a click focuses an open Afterword tab on that url or opens one.

const DEFAULT_URL = '/app';

/** Only paths on this origin: a payload can never send the user elsewhere. */
function sameOriginUrl(value) {
  try {
    const url = new URL(value || DEFAULT_URL, self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL(DEFAULT_URL, self.location.origin).href;
  } catch {
    return new URL(DEFAULT_URL, self.location.origin).href;
  }
}

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json() || {};
    } catch {
      data = { body: event.data.text() };
    }
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Afterword';
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    icon: '/favicon.svg',
    data: { url: sameOriginUrl(data.url) },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const exact = windows.find((w) => w.url === url);
      if (exact) return exact.focus();
      const ours = windows.find((w) => new URL(w.url).origin === self.location.origin && 'navigate' in w);
      if (ours) {
        try {
          const navigated = await ours.navigate(url);
          if (navigated) return navigated.focus();
        } catch {
          // An uncontrolled tab cannot be navigated by the worker: open a new one instead.
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
