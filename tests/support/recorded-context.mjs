// A browser context whose every request (URL, headers, body) is recorded: the zero-knowledge journeys
// (e2e/e2ee.test.mjs, e2e/vault.test.mjs) search them for what must never leave the browser.
import { newContext } from './browser.mjs';

/**
 * Opens a context on `origin` with downloads allowed, the Welcome modal already seen, and every request
 * recorded; `requests()` resolves to them once their bodies are read. `timeout` bounds each wait of a step
 * (every wait is on a condition; this only caps how long one may take on a busy machine).
 */
export async function recordedContext(browser, origin, { timeout, microphone = false } = {}) {
  const { context, errors } = await newContext(browser, { baseURL: origin, width: 1280, height: 900, acceptDownloads: true });
  if (timeout) context.setDefaultTimeout(timeout);
  if (microphone) await context.grantPermissions(['microphone']);
  const pending = [];
  context.on('request', (req) => {
    pending.push(
      (async () => {
        let body = null;
        try {
          body = req.postDataBuffer();
        } catch {}
        const headers = await req.allHeaders().catch(() => req.headers());
        return { method: req.method(), url: req.url(), headers, body };
      })(),
    );
  });
  const page = await context.newPage();
  // No Welcome modal in the way (app-shell.test.mjs covers it).
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('hasSeenOnboarding', 'true'));
  return { context, page, errors, requests: () => Promise.all(pending) };
}

/** Signs in through the login form and waits for the dashboard. */
export async function uiLogin(page, email, password) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((u) => u.pathname === '/app');
}
