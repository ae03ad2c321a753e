// Lighthouse on the pages people arrive at from a memorial link or a release e-mail, often on a phone: the
// public pages and the login, with Lighthouse's default settings (mobile form factor, simulated slow 4G and
// a 4× slower CPU), in Debian's Chromium. Prints the four category scores, LCP, total blocking time and
// CLS per page, and each page's failed audits; asserts nothing. BENCH_LIGHTHOUSE=0 skips it.
// On its own, against any running server (a fresh `npm start`, as a newcomer gets it):
//   node tests/bench/lighthouse.mjs http://127.0.0.1:8787 [/path …]
import lighthouse from 'lighthouse';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../support/browser.mjs';
import { freePort } from '../support/free-port.mjs';

/** The prerendered public pages and the login (web/scripts/prerender.mjs), the landing served by the Worker. */
export const LIGHTHOUSE_PAGES = ['/', '/pricing', '/login', '/support', '/press', '/terms', '/privacy'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** One Lighthouse run per page, one after another (Lighthouse drives one tab of one browser at a time). */
export async function runLighthouseBench(origin, pages = LIGHTHOUSE_PAGES) {
  const port = await freePort();
  const browser = await launchBrowser([`--remote-debugging-port=${port}`]);
  const rows = [];
  try {
    for (const path of pages) {
      const { lhr } = await lighthouse(`${origin}${path}`, { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES });
      const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const audit = (id) => lhr.audits[id]?.numericValue;
      const failed = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual')
        .map((a) => a.id);
      rows.push({
        page: path,
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best practices': score('best-practices'),
        seo: score('seo'),
        LCP: `${((audit('largest-contentful-paint') ?? 0) / 1000).toFixed(1)} s`,
        TBT: `${Math.round(audit('total-blocking-time') ?? 0)} ms`,
        CLS: Number((audit('cumulative-layout-shift') ?? 0).toFixed(3)),
        failed,
        version: lhr.lighthouseVersion,
      });
    }
  } finally {
    await browser.close();
  }
  return rows;
}

export function printLighthouseResults(rows) {
  console.log(`\n== First visit on a phone: Lighthouse ${rows[0]?.version ?? ''} (mobile, simulated slow 4G, 4× CPU slowdown), Debian's Chromium ==`);
  console.table(rows.map(({ failed, version, ...r }) => r));
  for (const r of rows) if (r.failed.length) console.log(`  ${r.page}: audits below 90 — ${r.failed.join(', ')}`);
  const below = rows.filter((r) => r.performance < 98 || r.accessibility < 100 || r['best practices'] < 100 || r.seo < 100);
  console.log(
    below.length
      ? `  goal (performance ≥ 98, the other three 100) not met on: ${below.map((r) => r.page).join(', ')}`
      : '  goal met on every page: performance ≥ 98, accessibility, best practices and SEO 100',
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [origin, ...paths] = process.argv.slice(2);
  if (!origin) throw new Error('usage: node tests/bench/lighthouse.mjs <origin> [/path …]');
  printLighthouseResults(await runLighthouseBench(origin.replace(/\/$/, ''), paths.length ? paths : LIGHTHOUSE_PAGES));
}
