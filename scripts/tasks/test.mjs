// `npm test`: lint (Biome), typecheck, Worker tests (vitest inside workerd), web component tests, the
// task scripts' own tests, a fresh web build, then the black-box API and browser tests against a
// `wrangler dev` that tests/run-e2e.mjs starts and stops on a free port. Ends with one "N passed,
// N failed" line that agrees with the exit code: a test that did not pass and was not skipped counts as
// failed, a timed-out (cancelled) one included, and a failed step counts at least one
// (scripts/lib/test-totals.mjs).
import { readFileSync, rmSync } from 'node:fs';
import { buildExportOpener } from '../lib/export-opener-build.mjs';
import { countNodeTestSummary, countVitestReport, createTotals, failedVitestTests } from '../lib/test-totals.mjs';
import { buildWebIfStale } from '../lib/web-build.mjs';
import { DEPCRUISE_ARGS, DEPCRUISE_DOMAIN_ARGS, root, run, step } from '../lib/proc.mjs';

const totals = createTotals();
/** Each stage's wall time, printed just above the last line: where a run's minutes go. */
const stageTimes = [];
async function timed(label, work) {
  const started = Date.now();
  try {
    return await work();
  } finally {
    stageTimes.push(`${label} ${Math.round((Date.now() - started) / 1000)} s`);
  }
}
const runStarted = Date.now();
/** Failed tests by name, printed again just above the last line. */
const failedTests = [];

async function vitest(name, filter) {
  step(name);
  const out = `${root}/node_modules/.cache/vitest-${filter.split('/')[1]}.json`;
  rmSync(out, { force: true });
  const r = await run('pnpm', ['--filter', filter, 'exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  let report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    totals.add(name, { failed: 1, note: 'no report' }, false);
    return;
  }
  totals.add(name, countVitestReport(report), r.code === 0);
  failedTests.push(...failedVitestTests(report, root));
}

/** A node:test run whose output is captured and counted from its closing summary. */
async function nodeTests(name, cmd, args, opts) {
  step(name);
  const r = await run(cmd, args, { capture: true, ...opts });
  const counts = countNodeTestSummary(r.out);
  const note = !counts.reported ? 'no summary' : counts.cancelled ? `${counts.cancelled} cancelled: timed out or cut short` : undefined;
  totals.add(name, { ...counts, note }, r.code === 0);
}

// The export's opener page is built from the web's crypto before anything reads it (the typecheck, the
// Worker tests, the archive the browser tests download).
await timed('opener build', () => buildExportOpener());

// Lint first: it takes a second and fails on an unformatted file as on a lint error or warning; a
// failure is a failed step like the typecheck, and the run goes on.
step('Lint (Biome: formatting and lint rules, read-only; dependency-cruiser: which way imports point)');
const lint = await timed('lint', async () => {
  const biome = await run('biome', ['ci', '--error-on-warnings', '.']);
  const shape = await run('depcruise', [...DEPCRUISE_ARGS]);
  const domains = await run('depcruise', [...DEPCRUISE_DOMAIN_ARGS]);
  return { code: biome.code || shape.code || domains.code };
});
totals.add('lint', {}, lint.code === 0);

step('Typecheck (TypeScript strict, every package)');
const tc = await timed('typecheck', () => run('pnpm', ['-r', '--workspace-concurrency=1', 'run', 'typecheck']));
totals.add('typecheck', {}, tc.code === 0);

await timed('worker tests', () => vitest('Worker tests (vitest inside workerd)', '@afterword/worker'));
await timed('web tests', () => vitest('Web component tests (vitest + happy-dom)', '@afterword/web'));
await timed('script tests', () => nodeTests('Task script tests (node:test)', process.execPath, ['--test', '--test-reporter=spec', 'scripts/**/*.test.mjs']));

// The browser tests cover Google sign-in end to end, so the app they test is built with it on
// (unless VITE_GOOGLE_SIGNIN is set otherwise); run-e2e.mjs and its tests read the same variable.
const e2eEnv = { ...process.env, VITE_GOOGLE_SIGNIN: process.env.VITE_GOOGLE_SIGNIN ?? 'true' };
await timed('web build', () => buildWebIfStale({ force: true, env: e2eEnv }));
await timed('API and browser tests', () =>
  nodeTests('API and browser tests (node:test + Chromium against wrangler dev)', 'node', ['tests/run-e2e.mjs'], { env: e2eEnv }),
);

console.log('');
console.log(`Stage times: ${stageTimes.join(', ')}; all ${Math.round((Date.now() - runStarted) / 1000)} s`);
for (const test of failedTests) console.log(`✗ ${test}`);
if (totals.failures.length) console.log(`Failed: ${totals.failures.join('; ')}`);
console.log(totals.line());
process.exit(totals.exitCode());
