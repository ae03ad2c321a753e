// axe-core scan of the public pages: no serious or critical violations (WCAG 2.x A/AA rules).
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { newContext, sharedBrowser, screenshot } from '../support/browser.mjs';

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
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        if (width === 1280) await screenshot(page, `public${path === '/' ? '-home' : path.replace(/\//g, '-')}`);
        assert.ok(results.passes.length > 0, 'axe actually ran rules');
        assert.deepEqual(
          bad.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })),
          [],
        );
      } finally {
        await context.close();
      }
    });
  }
}
