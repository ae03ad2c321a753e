// Plans and checkout (docs/decisions/billing.md): the header's Upgrade link → /pricing (annual by
// default) → /checkout shows the charge and what changes → the local sandbox plays the provider → the
// signed event reaches the webhook → the billing page shows the new plan and its limits. A declined card
// leaves the account on Free.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sharedBrowser, screenshot } from '../support/browser.mjs';
import { assertNoSeriousAxeViolations } from '../support/page.mjs';
import { newAccountPage } from '../support/session.mjs';

const getBrowser = sharedBrowser({ after });

/** From the checkout page's summary to the sandbox provider's page. */
async function continueToSandbox(page) {
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL(/\/app\/billing\/sandbox\/cs_sandbox_/);
  await page.getByRole('heading', { name: 'Plus, annual' }).waitFor();
}

test('a Free user upgrades to Plus annual through the sandbox, and the billing page shows Plus with 3 canaries allowed', async () => {
  const { page, context, errors } = await newAccountPage(await getBrowser(), '/app');
  try {
    await page.getByRole('link', { name: 'Upgrade' }).click();
    await page.waitForURL(/\/pricing$/);
    assert.equal(await page.getByRole('button', { name: /^Annual/ }).getAttribute('aria-pressed'), 'true', 'annual is the default cycle');
    await page.getByRole('link', { name: 'Choose Plus (Guardian)' }).click();
    await page.waitForURL(/\/checkout\?plan=plus&cycle=annual$/);
    assert.equal(await page.getByTestId('checkout-charge').textContent(), '$49 every year, until you cancel');
    await page.getByText('Canaries: 1 → 3').waitFor();
    await assertNoSeriousAxeViolations(page, '/checkout');

    await continueToSandbox(page);
    await assertNoSeriousAxeViolations(page, 'the sandbox checkout');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/app\/billing\?checkout=success$/);
    await page.getByTestId('billing-plan').filter({ hasText: 'Plus' }).waitFor();
    await page.getByText('Billing: Annual').waitFor();
    await page.getByText(/^Renews on /).waitFor();
    assert.match(await page.getByTestId('meter-canaries').textContent(), /0 of 3/);
    await assertNoSeriousAxeViolations(page, '/app/billing');
    await screenshot(page, 'billing-plus');
    assert.deepEqual(errors, [], 'no console errors');
  } catch (err) {
    await screenshot(page, 'billing-upgrade');
    throw err;
  } finally {
    await context.close();
  }
});

test('a declined card leaves the account on Free', async () => {
  const { page, context, errors } = await newAccountPage(await getBrowser(), '/checkout?plan=plus&cycle=annual');
  try {
    await continueToSandbox(page);
    await page.getByRole('button', { name: 'Decline the card' }).click();
    await page.getByText('The card was declined. Nothing was charged and your plan has not changed.').waitFor();
    // The page leads back to billing.
    await page.getByRole('link', { name: 'Back to billing', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/app/billing');
    await page.getByTestId('billing-plan').filter({ hasText: 'Free' }).waitFor();
    assert.match(await page.getByTestId('meter-canaries').textContent(), /0 of 1/);
    assert.deepEqual(errors, [], 'no console errors');
  } catch (err) {
    await screenshot(page, 'billing-declined');
    throw err;
  } finally {
    await context.close();
  }
});

test('a subscriber cancels from Manage plan: asked first, the plan stays to the end of the period, and can be kept again', async () => {
  const { acct, page, context, errors } = await newAccountPage(await getBrowser(), '/checkout?plan=plus&cycle=annual');
  try {
    await continueToSandbox(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/app\/billing\?checkout=success$/);
    await page.getByText(/^Renews on /).waitFor();

    await page.getByRole('button', { name: 'Manage plan' }).click();
    await page.waitForURL(/\/app\/billing\/portal$/);
    await page.getByRole('heading', { name: 'Plus, annual' }).waitFor();
    await page.getByRole('button', { name: 'Cancel plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your plan?' });
    assert.match(await dialog.textContent(), /Your Plus plan stays until .*nothing you made is deleted/);
    await assertNoSeriousAxeViolations(page, 'the sandbox portal, asking');
    await dialog.getByRole('button', { name: 'Cancel plan' }).click();
    await page.getByText(/^Cancelled: your plan ends on .*Nothing is deleted\.$/).waitFor();
    await screenshot(page, 'billing-portal-cancelled');

    await page.getByRole('link', { name: 'Back to billing' }).click();
    await page.getByText(/^Cancelled: it ends on .*Nothing is deleted\.$/).waitFor();
    const billing = await fetch(`${process.env.AFTERWORD_ORIGIN}/api/billing`, { headers: { authorization: `Bearer ${acct.token}` } }).then((r) => r.json());
    assert.equal(billing.plan, 'plus', 'the plan stays until the period ends');
    assert.equal(billing.cancel_at_period_end, true);

    await page.getByRole('button', { name: 'Manage plan' }).click();
    await page.getByRole('button', { name: 'Keep my plan' }).click();
    await page.getByRole('button', { name: 'Cancel plan' }).waitFor();
    await page.goto('/app/billing');
    await page.getByText(/^Renews on /).waitFor();
    assert.deepEqual(errors, [], 'no console errors');
  } finally {
    await context.close();
  }
});
