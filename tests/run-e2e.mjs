#!/usr/bin/env node
// Black-box and browser tests: starts the fake Google provider and the real Worker (wrangler dev,
// fresh local D1, the cron handler open to requests, one community moderator) once, then runs
// tests/api/*.test.mjs and tests/e2e/*.test.mjs in a child `node --test` that inherits the stage's
// addresses (AFTERWORD_ORIGIN, AFTERWORD_PERSIST_DIR, AFTERWORD_MODERATOR_EMAIL, FAKE_GOOGLE_ORIGIN; read
// through tests/support/stage-worker.mjs), stops everything and exits with the test run's code. The web app
// must be built first (web/dist/index.html).
//   node tests/run-e2e.mjs [--api-only | --e2e-only] [extra node --test args, e.g. --test-name-pattern=…]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeGoogle } from './support/fake-google.mjs';
import { freePort } from './support/free-port.mjs';
import { repoRoot, startWorker } from './support/worker-server.mjs';

const argv = process.argv.slice(2);
const only = argv.includes('--api-only') ? 'api' : argv.includes('--e2e-only') ? 'e2e' : null;
const extra = argv.filter((a) => a !== '--api-only' && a !== '--e2e-only');

const indexHtml = join(repoRoot, 'web', 'dist', 'index.html');
if (!existsSync(indexHtml)) {
  console.error(`run-e2e: ${indexHtml} is missing. Build the web app first: pnpm --filter @afterword/web build`);
  process.exit(2);
}

const testsDir = join(repoRoot, 'tests');
const files = ['api', 'e2e']
  .filter((d) => !only || d === only)
  .flatMap((d) =>
    readdirSync(join(testsDir, d))
      .filter((f) => f.endsWith('.test.mjs'))
      .sort()
      .map((f) => join(testsDir, d, f)),
  );

const google = await startFakeGoogle();
const port = await freePort();
google.allowRedirectUri(`http://127.0.0.1:${port}/api/auth/google/callback`);
let worker;
let child;
let shuttingDown = false;
async function shutdown(code) {
  if (shuttingDown) return;
  shuttingDown = true;
  if (child && child.exitCode === null) child.kill('SIGTERM');
  await worker?.stop().catch((e) => console.error('run-e2e: stopping wrangler failed', e));
  await google.stop().catch(() => {});
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => shutdown(130));

const moderatorEmail = `moderator.${randomUUID().slice(0, 10)}@example.test`;
try {
  worker = await startWorker({
    port,
    vars: { ...google.workerVars(), MODERATOR_EMAILS: moderatorEmail },
    extraArgs: ['--test-scheduled'],
    log: process.env.AFTERWORD_WORKER_LOG ? (l) => console.error(`[wrangler] ${l}`) : undefined,
  });
} catch (err) {
  console.error(`run-e2e: ${err.message}`);
  await shutdown(1);
}
console.log(`run-e2e: worker ${worker.origin} (pid ${worker.pid}), fake Google ${google.origin}, ${files.length} test files`);

// Two files at a time: they share the Worker but never an account, and a journey spends much of its time
// waiting on the Worker, the browser or (owner-warnings.test.mjs) a real 60 s canary.
child = spawn(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', '--test-timeout=120000', ...extra, ...files], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    AFTERWORD_ORIGIN: worker.origin,
    AFTERWORD_PERSIST_DIR: worker.persistDir,
    AFTERWORD_MODERATOR_EMAIL: moderatorEmail,
    FAKE_GOOGLE_ORIGIN: google.origin,
    FAKE_GOOGLE_CLIENT_ID: google.clientId,
  },
});
child.on('exit', (code, signal) => shutdown(code ?? (signal ? 1 : 0)));
