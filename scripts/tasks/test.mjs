// `npm test`: typecheck, Worker tests (vitest inside workerd), web component tests, a fresh web build,
// then the black-box API and browser tests against a `wrangler dev` that tests/run-e2e.mjs starts
// and stops on a free port. Ends with one "N passed, N failed" line; exits non-zero on any failure.
import { readFileSync, rmSync } from 'node:fs';
import { buildWebIfStale } from '../lib/web-build.mjs';
import { root, run, step } from '../lib/proc.mjs';

const totals = { passed: 0, failed: 0 };
const failures = [];

function countVitest(file, name) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    return report.numFailedTests === 0 && report.success !== false;
  } catch {
    failures.push(`${name}: no report`);
    totals.failed += 1;
    return false;
  }
}

async function vitest(name, filter) {
  step(name);
  const out = `${root}/node_modules/.cache/vitest-${filter.split('/')[1]}.json`;
  rmSync(out, { force: true });
  const r = await run('pnpm', ['--filter', filter, 'exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  if (!countVitest(out, name) || r.code !== 0) failures.push(name);
}

step('Typecheck (TypeScript strict, every package)');
const tc = await run('pnpm', ['-r', '--workspace-concurrency=1', 'run', 'typecheck']);
if (tc.code !== 0) failures.push('typecheck');

await vitest('Worker tests (vitest inside workerd)', '@afterword/worker');
await vitest('Web component tests (vitest + happy-dom)', '@afterword/web');

// The browser tests cover Google sign-in end to end, so the app they test is built with it on
// (unless VITE_GOOGLE_SIGNIN is set otherwise); run-e2e.mjs and its tests read the same variable.
const e2eEnv = { ...process.env, VITE_GOOGLE_SIGNIN: process.env.VITE_GOOGLE_SIGNIN ?? 'true' };
await buildWebIfStale({ force: true, env: e2eEnv });
step('API and browser tests (node:test + Chromium against wrangler dev)');
const e2e = await run('node', ['tests/run-e2e.mjs'], { capture: true, env: e2eEnv });
const pass = [...e2e.out.matchAll(/^ℹ pass (\d+)$/gm)].at(-1)?.[1];
const fail = [...e2e.out.matchAll(/^ℹ fail (\d+)$/gm)].at(-1)?.[1];
totals.passed += Number(pass ?? 0);
totals.failed += Number(fail ?? (e2e.code === 0 ? 0 : 1));
if (e2e.code !== 0) failures.push('API and browser tests');

console.log('');
if (failures.length) console.log(`Failed: ${failures.join('; ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(failures.length ? 1 : 0);
