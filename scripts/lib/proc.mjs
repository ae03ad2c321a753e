// Small process helpers for the task scripts (run under the project's Node >= 22.13).
import { spawn } from 'node:child_process';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

/** Runs a command to completion, streaming its output; resolves with its exit code. */
/** The code whose import directions `.dependency-cruiser.cjs` checks, and how (the lint stage of npm test and npm run lint). */
export const DEPCRUISE_ARGS = ['worker/src', 'web/src', 'db', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'];
/** The domains as wholes: no cycle between their folders (.dependency-cruiser.domains.cjs). */
export const DEPCRUISE_DOMAIN_ARGS = ['worker/src', '--config', '.dependency-cruiser.domains.cjs', '--output-type', 'err'];

export function run(cmd, args, { env = process.env, cwd = root, capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (capture) {
      child.stdout.on('data', (d) => {
        out += d;
        process.stdout.write(d);
      });
      child.stderr.on('data', (d) => {
        out += d;
        process.stderr.write(d);
      });
    }
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

/** Like run, but exits the task with the command's code when it fails. */
export async function must(cmd, args, opts) {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) {
    console.error(`✗ ${cmd} ${args.join(' ')} failed (exit ${r.code})`);
    process.exit(r.code);
  }
  return r;
}

export const step = (msg) => console.log(`\n› ${msg}`);

/**
 * What a local Worker runs with: wrangler.toml ships production (worker/src/env-check.ts), so `npm start`,
 * the browser tests and the benches ask for development, where webhooks may reach this machine.
 */
export const DEVELOPMENT_VARS = [
  ['APP_ENV', 'development'],
  ['WEBHOOK_ALLOW_PRIVATE_URLS', 'true'],
];
