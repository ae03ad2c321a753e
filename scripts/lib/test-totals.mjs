// The counting behind `npm test`'s last line ("N passed, N failed"). The rule: a test that did not pass
// and was not deliberately skipped (skip, todo) is a failure, whatever the runner calls it — node:test
// reports a test that hit its timeout as *cancelled*, not failed, and vitest leaves a test file that
// could not load out of numFailedTests. And a step that failed counts at least one failure, so the
// line never reads "0 failed" when the exit code is 1.

/**
 * Counts from node:test's closing summary (`ℹ pass 12`, `ℹ fail 0`, `ℹ cancelled 1`…), the last one in
 * `output`. Cancelled tests (timed out, or cut short with their parent) count as failed. Without a
 * summary the run said nothing about its tests: one failure.
 * @returns {{ passed: number, failed: number, cancelled: number, reported: boolean }}
 */
export function countNodeTestSummary(output) {
  const last = (name) => {
    const m = [...output.matchAll(new RegExp(`^ℹ ${name} (\\d+)$`, 'gm'))].at(-1);
    return m ? Number(m[1]) : null;
  };
  const passed = last('pass');
  const failed = last('fail');
  const cancelled = last('cancelled');
  if (passed === null || failed === null) return { passed: passed ?? 0, failed: 1, cancelled: 0, reported: false };
  return { passed, failed: failed + (cancelled ?? 0), cancelled: cancelled ?? 0, reported: true };
}

/** vitest's per-test statuses that are not failures: passed, or skipped on purpose. */
const NOT_FAILED = new Set(['passed', 'skipped', 'pending', 'todo', 'disabled']);

/**
 * Counts from vitest's JSON report (jest-compatible: testResults[].assertionResults[].status). Every
 * test whose status is not passed/skipped/pending/todo/disabled is failed (a timeout is 'failed'); a
 * test file that failed with no failed test of its own (it did not load, a hook threw) is one more
 * failure; a report that says it did not succeed counts at least one.
 * @returns {{ passed: number, failed: number }}
 */
export function countVitestReport(report) {
  let passed = 0;
  let failed = 0;
  for (const file of report.testResults ?? []) {
    const results = file.assertionResults ?? [];
    let failedHere = 0;
    for (const test of results) {
      if (test.status === 'passed') passed += 1;
      else if (!NOT_FAILED.has(test.status)) failedHere += 1;
    }
    if (file.status === 'failed' && failedHere === 0) failedHere = 1;
    failed += failedHere;
  }
  if (report.success === false && failed === 0) failed = 1;
  return { passed, failed };
}

/**
 * A fast-check failure's replay (its seed and path line) and counterexample, so a property that failed once on
 * a CI machine can be replayed from the run's last lines alone (a property's error follows "Got " when
 * worker/test/setup/fast-check.ts sets includeErrorInReport); empty for any other failure.
 */
function propertyReplay(message) {
  const lines = String(message ?? '').split('\n');
  if (!/^(\w*Error: )?Property failed/.test(lines[0] ?? '')) return '';
  const replay = lines.find((l) => /\{ seed: -?\d+/.test(l));
  const counterexample = lines.find((l) => l.startsWith('Counterexample:'));
  const gotError = lines.find((l) => l.startsWith('Got '));
  return [replay, counterexample, gotError]
    .filter(Boolean)
    .map((l) => `\n    ${l.trim().slice(0, 1200)}`)
    .join('');
}

/** How many lines of a failed simulation's timeline the summary keeps: the first failure's story, not the whole log. */
const TIMELINE_LINES = 40;

/**
 * The timeline a failed simulation verdict carries after its first line ("FALSE RELEASE (seed 11; replay: …): …"
 * then the sender's events, worker/test/simulation/report.ts): a run that failed on CI's timing may not fail again
 * when replayed, so its story has to reach the end of the log. Empty for any other failure.
 */
function simulationTimeline(message) {
  const lines = String(message ?? '').split('\n');
  if (!/^(\w*Error: )?[A-Z][A-Z ,'-]+ \(seed \d+; replay: /.test(lines[0] ?? '')) return '';
  const story = [];
  for (const line of lines.slice(1)) {
    if (!line.trim() || /^\s+at /.test(line) || story.length === TIMELINE_LINES) break;
    story.push(`\n    ${line.trimEnd().slice(0, 300)}`);
  }
  return story.join('');
}

/**
 * The tests a vitest JSON report failed, each as "file › test: first line of its error", so the end of
 * `npm test` (often all a CI log keeps) names them. A file that failed without a failed test of its
 * own (it did not load, a hook threw) is named with its own message.
 * @returns {string[]}
 */
export function failedVitestTests(report, root = '') {
  const names = [];
  const firstLine = (text) =>
    String(text ?? '')
      .trim()
      .split('\n')[0]
      .slice(0, 300);
  for (const file of report.testResults ?? []) {
    const path = String(file.name ?? '')
      .replace(root, '')
      .replace(/^\//, '');
    const failed = (file.assertionResults ?? []).filter((t) => !NOT_FAILED.has(t.status) && t.status !== 'passed');
    for (const test of failed) {
      const message = test.failureMessages?.[0];
      names.push(`${path} › ${test.fullName ?? test.title}: ${firstLine(message)}${propertyReplay(message)}${simulationTimeline(message)}`);
    }
    if (file.status === 'failed' && failed.length === 0) names.push(`${path}: ${firstLine(file.message)}`);
  }
  return names;
}

/** The run's totals, step by step; `failures` names the steps that failed. */
export function createTotals() {
  const totals = { passed: 0, failed: 0, failures: [] };
  return {
    /**
     * @param {string} name the step, as the "Failed: …" line names it
     * @param {{ passed?: number, failed?: number, note?: string }} counts
     * @param {boolean} exitedOk the step's command exited 0
     */
    add(name, { passed = 0, failed = 0, note } = {}, exitedOk = true) {
      const stepFailed = !exitedOk || failed > 0;
      totals.passed += passed;
      totals.failed += stepFailed ? Math.max(failed, 1) : 0;
      if (stepFailed) totals.failures.push(note ? `${name} (${note})` : name);
    },
    get passed() {
      return totals.passed;
    },
    get failed() {
      return totals.failed;
    },
    get failures() {
      return [...totals.failures];
    },
    /** The closing line; consistent with the exit code by construction (failed > 0 exactly when a step failed). */
    line() {
      return `${totals.passed} passed, ${totals.failed} failed`;
    },
    exitCode() {
      return totals.failures.length ? 1 : 0;
    },
  };
}
