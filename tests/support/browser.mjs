// Debian's Chromium driven by playwright-core, plus small helpers for the browser tests.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { markRecording, recordToasts } from './toast-record.mjs';

export const artifactsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(extraArgs = []) {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * A fresh context (own storage, so its own localStorage) with a viewport, whose pages record console
 * errors and uncaught page errors in `errors` and whose toasts are recorded (tests/support/toast-record.mjs).
 * @param {import('playwright-core').Browser} browser
 */
export async function newContext(browser, { width = 1280, height = 800, baseURL = process.env.AFTERWORD_ORIGIN, ...rest } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, baseURL, ...rest });
  await recordToasts(context);
  markRecording(context);
  const errors = [];
  context.on('page', (page) => watch(page, errors));
  const newPage = async () => {
    const page = await context.newPage();
    return page;
  };
  return { context, errors, newPage };
}

function watch(page, errors) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push({ url: page.url(), text: msg.text() });
  });
  page.on('pageerror', (err) => errors.push({ url: page.url(), text: `pageerror: ${err.message}` }));
}

/** Saves a full-page screenshot under tests/artifacts/<name>.png (gitignored). */
export async function screenshot(page, name) {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * One browser per test file, launched on first use and closed in the file's `after` hook, so a file
 * whose tests are all filtered out (--test-name-pattern) never starts Chromium and never hangs.
 * @param {{ after: (fn: () => unknown) => void }} hooks node:test's `after`
 */
export function sharedBrowser({ after }) {
  let launching;
  after(async () => {
    if (launching) await (await launching).close();
  });
  return () => (launching ??= launchBrowser());
}
