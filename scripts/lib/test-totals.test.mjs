// `npm test` runs this (its "Task script tests" step): the counting behind its last line.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countNodeTestSummary, countVitestReport, createTotals, failedVitestTests } from './test-totals.mjs';

/** node:test's spec reporter summary, as run-e2e prints it. */
const summary = ({ pass = 0, fail = 0, cancelled = 0, skipped = 0, todo = 0 }) =>
  [
    'ℹ tests 9',
    'ℹ suites 0',
    `ℹ pass ${pass}`,
    `ℹ fail ${fail}`,
    `ℹ cancelled ${cancelled}`,
    `ℹ skipped ${skipped}`,
    `ℹ todo ${todo}`,
    'ℹ duration_ms 99050.3',
  ].join('\n');

describe('node:test summaries', () => {
  test('a cancelled test (its timeout on a busy machine) counts as failed', () => {
    const out = `✖ E2EE: the server never sees the text (120002ms)\n  'test timed out after 120000ms'\n${summary({ pass: 966, cancelled: 1 })}\n`;
    assert.deepEqual(countNodeTestSummary(out), { passed: 966, failed: 1, cancelled: 1, reported: true });
  });

  test('failed and cancelled add up; skipped and todo do not count', () => {
    assert.deepEqual(countNodeTestSummary(summary({ pass: 10, fail: 2, cancelled: 3, skipped: 4, todo: 5 })), {
      passed: 10,
      failed: 5,
      cancelled: 3,
      reported: true,
    });
  });

  test('the last summary wins (an earlier one may be echoed in the output)', () => {
    assert.equal(countNodeTestSummary(`${summary({ pass: 1, fail: 7 })}\n…\n${summary({ pass: 3 })}`).failed, 0);
  });

  test('an indented diagnostic that looks like a summary line is not read as one', () => {
    assert.equal(countNodeTestSummary(`  ℹ fail 9\n${summary({ pass: 2 })}`).failed, 0);
  });

  test('no summary at all (the run died before reporting) is one failure', () => {
    assert.deepEqual(countNodeTestSummary('run-e2e: wrangler dev exited early\n'), { passed: 0, failed: 1, cancelled: 0, reported: false });
  });
});

describe('vitest JSON reports', () => {
  const file = (status, ...tests) => ({ name: '/x.test.ts', status, message: '', assertionResults: tests.map((s, i) => ({ title: `t${i}`, status: s })) });

  test('counts per test: a timed-out test is already failed; skipped, pending and todo are not failures', () => {
    const report = { success: false, numFailedTests: 2, testResults: [file('failed', 'passed', 'failed', 'skipped', 'todo', 'failed', 'pending')] };
    assert.deepEqual(countVitestReport(report), { passed: 1, failed: 2 });
  });

  test('a test file that could not load (no tests of its own) is one failure, which numFailedTests leaves out', () => {
    const report = {
      success: false,
      numFailedTests: 0,
      testResults: [file('passed', 'passed', 'passed'), { name: '/broken.test.ts', status: 'failed', message: 'load failure', assertionResults: [] }],
    };
    assert.deepEqual(countVitestReport(report), { passed: 2, failed: 1 });
  });

  test('an unknown status is not a pass', () => {
    assert.deepEqual(countVitestReport({ success: true, testResults: [file('passed', 'passed', 'interrupted')] }), { passed: 1, failed: 1 });
  });

  test('a report that did not succeed counts at least one failure (an unhandled error)', () => {
    assert.deepEqual(countVitestReport({ success: false, testResults: [file('passed', 'passed')] }), { passed: 1, failed: 1 });
  });
});

describe('the failed tests are named at the end of the run', () => {
  test('each failed test by file, full name and the first line of its error; a file that did not load by its message', () => {
    const report = {
      success: false,
      testResults: [
        {
          name: '/repo/worker/test/a.test.ts',
          status: 'failed',
          assertionResults: [
            { title: 'ok', fullName: 'a > ok', status: 'passed' },
            { title: 'breaks', fullName: 'a > breaks', status: 'failed', failureMessages: ['AssertionError: expected 1 to be 2\n    at stack'] },
            { title: 'later', fullName: 'a > later', status: 'skipped' },
          ],
        },
        { name: '/repo/worker/test/b.test.ts', status: 'failed', message: 'SyntaxError: nope\nmore', assertionResults: [] },
        { name: '/repo/worker/test/c.test.ts', status: 'passed', assertionResults: [{ title: 'fine', status: 'passed' }] },
      ],
    };
    assert.deepEqual(failedVitestTests(report, '/repo'), [
      'worker/test/a.test.ts › a > breaks: AssertionError: expected 1 to be 2',
      'worker/test/b.test.ts: SyntaxError: nope',
    ]);
  });
});

describe('a failed property names how to replay it', () => {
  test('the seed and path, the counterexample and the error follow the first line', () => {
    const message = [
      'Error: Property failed after 47 tests',
      '{ seed: -1203, path: "46:2:0", endOnFailure: true }',
      'Counterexample: [{"kind":"interval"},[]]',
      'Shrunk 2 time(s)',
      'Got AssertionError: expected 1 to be 0',
      '    at stack',
    ].join('\n');
    const report = {
      testResults: [
        {
          name: '/repo/worker/test/m.test.ts',
          status: 'failed',
          assertionResults: [{ fullName: 'model > holds', status: 'failed', failureMessages: [message] }],
        },
      ],
    };
    assert.deepEqual(failedVitestTests(report, '/repo'), [
      'worker/test/m.test.ts › model > holds: Error: Property failed after 47 tests' +
        '\n    { seed: -1203, path: "46:2:0", endOnFailure: true }' +
        '\n    Counterexample: [{"kind":"interval"},[]]' +
        '\n    Got AssertionError: expected 1 to be 0',
    ]);
  });
});

describe('a failed simulation keeps its timeline at the end of the log', () => {
  test('the lines after the verdict follow it, up to a blank line or the stack', () => {
    const message = [
      'AssertionError: FALSE RELEASE (seed 11; replay: SIM_SEED=11 SIM_PEOPLE=1000 SIM_DAYS=3 npm run simulate): message m1: released before its time',
      'person 7 (p7@example.com), canary "me" every 1 day(s) created day 0, checks in by token',
      '  day 1 15:20  check-in accepted',
      '',
      'MISSED (seed 11; replay: …): message m2: due and not released within the bound',
      '    at stack',
    ].join('\n');
    const report = {
      testResults: [
        {
          name: '/repo/worker/test/system-simulation.test.ts',
          status: 'failed',
          assertionResults: [{ fullName: 'the whole switch, simulated (seed 11)', status: 'failed', failureMessages: [message] }],
        },
      ],
    };
    assert.deepEqual(failedVitestTests(report, '/repo'), [
      'worker/test/system-simulation.test.ts › the whole switch, simulated (seed 11): AssertionError: FALSE RELEASE (seed 11; replay: SIM_SEED=11 SIM_PEOPLE=1000 SIM_DAYS=3 npm run simulate): message m1: released before its time' +
        '\n    person 7 (p7@example.com), canary "me" every 1 day(s) created day 0, checks in by token' +
        '\n      day 1 15:20  check-in accepted',
    ]);
  });

  test('another failure keeps its first line only', () => {
    const report = {
      testResults: [
        {
          name: '/repo/worker/test/a.test.ts',
          status: 'failed',
          assertionResults: [{ fullName: 'a', status: 'failed', failureMessages: ['Error: BOOM\nsecond line'] }],
        },
      ],
    };
    assert.deepEqual(failedVitestTests(report, '/repo'), ['worker/test/a.test.ts › a: Error: BOOM']);
  });
});

describe('the closing line agrees with the exit code', () => {
  test('a step that exited non-zero with nothing counted still counts one failure', () => {
    const totals = createTotals();
    totals.add('Worker tests', { passed: 500 });
    totals.add('typecheck', {}, false);
    assert.equal(totals.line(), '500 passed, 1 failed');
    assert.equal(totals.exitCode(), 1);
    assert.deepEqual(totals.failures, ['typecheck']);
  });

  test('a counted failure fails the run even when the command exited 0', () => {
    const totals = createTotals();
    totals.add('API and browser tests', { passed: 400, failed: 1, note: '1 cancelled' }, true);
    assert.equal(totals.line(), '400 passed, 1 failed');
    assert.equal(totals.exitCode(), 1);
    assert.deepEqual(totals.failures, ['API and browser tests (1 cancelled)']);
  });

  test('everything passing reads 0 failed and exits 0', () => {
    const totals = createTotals();
    totals.add('typecheck', {}, true);
    totals.add('Web component tests', { passed: 300 }, true);
    assert.equal(totals.line(), '300 passed, 0 failed');
    assert.equal(totals.exitCode(), 0);
  });
});
