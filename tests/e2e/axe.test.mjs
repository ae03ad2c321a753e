// axe-core scan of the public pages: no serious or critical violations (WCAG 2.x A/AA rules).
import { after, test } from 'node:test';
import { newContext, sharedBrowser, screenshot } from '../support/browser.mjs';
import { assertNoSeriousAxeViolations } from '../support/page.mjs';

const getBrowser = sharedBrowser({ after });

const PAGES = ['/', '/login', '/signup', '/pricing', '/terms', '/privacy', '/support', '/press'];

for (const path of PAGES) {
  for (const width of [1280, 375]) {
    test(`axe: ${path} at ${width}px has no serious or critical violations`, async () => {
      const { context } = await newContext(await getBrowser(), { width, height: 800 });
      const page = await context.newPage();
      try {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        if (width === 1280) await screenshot(page, `public${path === '/' ? '-home' : path.replace(/\//g, '-')}`);
        await assertNoSeriousAxeViolations(page, `${path} at ${width}px`);
      } finally {
        await context.close();
      }
    });
  }
}
