// Public pages in Chromium: the landing page's links, Back to home on legal pages, support and press.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { newContext, sharedBrowser, screenshot } from '../support/browser.mjs';

const getBrowser = sharedBrowser({ after });

async function open(path, opts) {
  const { context, errors } = await newContext(await getBrowser(), opts);
  const page = await context.newPage();
  await page.goto(path);
  return { page, context, errors };
}

const pathOf = (page) => new URL(page.url()).pathname;

test('landing page: hero heading and links to pricing, login, signup, a status page and a contact mail link', async () => {
  const { page, context, errors } = await open('/');
  try {
    const h1 = page.getByRole('heading', { level: 1 });
    await h1.waitFor();
    assert.ok((await h1.textContent()).trim().length > 0);
    const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const want of ['/pricing', '/login', '/signup']) assert.ok(hrefs.includes(want), `a link to ${want} (have ${hrefs.join(' ')})`);
    const mail = hrefs.filter((h) => h.startsWith('mailto:'));
    assert.ok(mail.length > 0, 'a mailto: contact link');
    assert.match(mail[0], /^mailto:[^@\s]+@[^@\s]+\.[a-z]+/i);
    const status = page.getByRole('link', { name: /status/i }).first();
    assert.ok(await status.count(), 'a status page link');
    await screenshot(page, 'landing');
    // Following each link reaches a real page.
    for (const [name, path] of [
      [/^pricing$/i, '/pricing'],
      [/status/i, null],
    ]) {
      await page.goto('/');
      const link = page.getByRole('link', { name }).first();
      const href = await link.getAttribute('href');
      await link.click();
      await page.waitForURL((u) => u.pathname === (path ?? new URL(href, 'http://x').pathname));
      assert.equal(await page.getByText('Page not found').count(), 0, `${href} is a real page`);
      assert.ok((await page.getByRole('heading', { level: 1 }).first().textContent()).trim(), `${href} has a heading`);
    }
    assert.deepEqual(
      errors.filter((e) => e.text.startsWith('pageerror')),
      [],
    );
  } finally {
    await context.close();
  }
});

test('landing page sections: how it works, who it is for, FAQ', async () => {
  const { page, context } = await open('/');
  try {
    await page.getByRole('heading', { level: 1 }).waitFor();
    for (const re of [/how it works/i, /who (it is|it's) for/i, /FAQ|frequently asked|questions/i]) {
      assert.ok(await page.getByRole('heading', { name: re }).count(), `a heading matching ${re}`);
    }
    // The FAQ answers open and close (native details/summary or buttons).
    const faq = page.locator('details');
    assert.ok((await faq.count()) >= 3, 'at least three FAQ entries');
    await faq.first().locator('summary').click();
    assert.equal(await faq.first().evaluate((d) => d.open), true);
  } finally {
    await context.close();
  }
});

for (const path of ['/terms', '/privacy']) {
  test(`${path} has a Back to home link to /`, async () => {
    const { page, context } = await open(path);
    try {
      await page.getByRole('heading', { level: 1 }).waitFor();
      const back = page.getByRole('link', { name: 'Back to home' });
      assert.equal((await back.count()) >= 1, true);
      await back.first().click();
      await page.waitForURL((u) => u.pathname === '/');
      assert.equal(pathOf(page), '/');
    } finally {
      await context.close();
    }
  });
}

test('/support: a USD amount field, NFT unlockables and early-adopter perks; submitting does not navigate', async () => {
  const { page, context } = await open('/support');
  try {
    await page.getByRole('heading', { level: 1 }).waitFor();
    const amount = page.getByLabel(/amount/i).first();
    await amount.waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /USD|\$/);
    assert.match((await page.locator('main').textContent()) ?? '', /NFT/i);
    assert.match((await page.locator('main').textContent()) ?? '', /early[- ]adopter/i);
    await amount.fill('25');
    const before = page.url();
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await amount.press('Enter');
    await page.waitForTimeout(300);
    assert.equal(page.url(), before);
    assert.deepEqual(
      requests.filter((u) => u.includes('/api/')),
      [],
      'no API call',
    );
  } finally {
    await context.close();
  }
});

test('/press: a pitch deck download that is a real PDF, and a resources section', async () => {
  const { page, context } = await open('/press');
  try {
    await page.getByRole('heading', { level: 1 }).waitFor();
    const deck = page.getByRole('link', { name: /pitch deck/i }).first();
    const href = await deck.getAttribute('href');
    const res = await page.request.get(href);
    assert.equal(res.status(), 200, `${href}`);
    assert.equal((await res.body()).subarray(0, 5).toString(), '%PDF-', 'the deck is a PDF');
    assert.ok(await page.getByRole('heading', { name: /resources/i }).count(), 'a resources section');
  } finally {
    await context.close();
  }
});

// docs/product.md "Public pages": /press has a pitch deck download, an explainer video link and resources.
test('/press: an explainer video link', async () => {
  const { page, context } = await open('/press');
  try {
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.ok(await page.getByRole('link', { name: /video/i }).count(), 'an explainer video link');
  } finally {
    await context.close();
  }
});
