// Page helpers shared by the browser journeys: the app's landmarks found by role, an axe scan that
// fails on serious or critical violations, polling, and console errors minus the expected ones.
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { recordsToasts, waitForToast } from './toast-record.mjs';

/**
 * A toast with exactly `text`: `waitFor()` resolves once the page has shown one that no earlier wait took (from the
 * record of tests/support/toast-record.mjs, so a 2 s success toast is not missed by a late poll); a page of a
 * context made elsewhere falls back to the visible toast.
 */
export const toast = (page, text) => {
  const visible = () => page.getByRole('region', { name: 'Notifications' }).locator('.toast__message').getByText(text, { exact: true });
  const waitFor = () => (recordsToasts(page) ? waitForToast(page, text) : visible().first().waitFor());
  return { waitFor };
};
/** The card (`section.card`) titled by an h2. */
export const card = (page, title) => page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: title, exact: true }) });
/** The page's h1. */
export const h1 = (page, name) => page.getByRole('heading', { level: 1, name, exact: true });

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Runs axe on the page as it is and fails with the serious or critical violations (at most 3 nodes each). */
export async function assertNoSeriousAxeViolations(page, label, { tags = AXE_TAGS } = {}) {
  const results = await new AxeBuilder({ page }).withTags(tags).analyze();
  assert.ok(results.passes.length > 0, `${label}: axe actually ran rules`);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })),
    [],
    label,
  );
}

/** Polls `check` every 200 ms until it resolves truthy and returns that value; fails after ~15 s. */
export async function eventually(check, label) {
  for (let i = 0; i < 75; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((res) => setTimeout(res, 200));
  }
  assert.fail(`never happened: ${label}`);
}

/** Console errors other than Chrome's own line for an expected failed request (`status of 404`…). */
export const unexpectedConsoleErrors = (errors, statuses = []) => errors.filter((e) => !statuses.some((s) => e.text.includes(`status of ${s}`)));

/**
 * A sign-in with the password whose account has no saved recovery key shows the recovery key once, in a modal
 * that opens with the page it lands on (web/src/features/e2ee/recovery-gate-loader.ts) and takes its clicks:
 * ticks that it is saved and closes it.
 */
export async function dismissRecoveryKey(page) {
  const dialog = page.getByRole('dialog', { name: 'Save your recovery key' });
  await dialog.getByLabel('I have saved my recovery key').check();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * A page opened with a stored token may or may not show the recovery key (only a sign-in with the password
 * makes one to show): waits for it or for `next`, and ticks and closes it if shown.
 */
export async function dismissRecoveryKeyIfShown(page, next) {
  const dialog = page.getByRole('dialog', { name: 'Save your recovery key' });
  await dialog.or(next).first().waitFor();
  if (!(await dialog.isVisible())) return;
  await dismissRecoveryKey(page);
}
