// Starts the real Worker under `wrangler dev` on 127.0.0.1 with a fresh local D1 (migrations applied
// first to the same persist dir), waits for /api/health and returns { origin, port, persistDir, stop }.
// The wrangler process is spawned detached so stop() can signal its whole process group (workerd,
// esbuild…) and leave no orphans.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function wranglerBin() {
  const bin = join(repoRoot, 'node_modules', '.bin', 'wrangler');
  if (!existsSync(bin)) throw new Error(`wrangler not found at ${bin}: run the workspace install first`);
  return bin;
}

// Wrangler's local observability collector is off, as for `npm start` (scripts/tasks/start.mjs); the
// benches may turn it on (tests/bench/bench-worker.mjs).
const baseEnv = () => ({ ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', X_LOCAL_OBSERVABILITY: 'false' });

/**
 * `persistRoot`: where the fresh local state directory is made (default: the OS temp dir); `env`: extra
 * environment for wrangler (tests/bench/bench-worker.mjs sets both for the benchmarks).
 * @param {{ vars?: Record<string,string>, port?: number, extraArgs?: string[], log?: (line: string) => void, timeoutMs?: number, persistRoot?: string, env?: Record<string,string> }} [opts]
 */
export async function startWorker(opts = {}) {
  const port = opts.port ?? (await freePort());
  const persistDir = mkdtempSync(join(opts.persistRoot ?? tmpdir(), 'afterword-wrangler-'));
  const env = { ...baseEnv(), ...(opts.env ?? {}) };
  const origin = `http://127.0.0.1:${port}`;
  // wrangler.toml ships production; a local Worker asks for development (worker/src/env-check.ts).
  const vars = { APP_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', PUBLIC_ORIGIN: origin, ...(opts.vars ?? {}) };

  const migrate = spawnSync(wranglerBin(), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (migrate.status !== 0) {
    rmSync(persistDir, { recursive: true, force: true });
    throw new Error(`wrangler d1 migrations apply failed (${migrate.status}):\n${migrate.stdout}\n${migrate.stderr}`);
  }

  const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', persistDir, '--show-interactive-dev-session=false'];
  for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
  args.push(...(opts.extraArgs ?? []));
  const child = spawn(wranglerBin(), args, { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const onData = (chunk) => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 400) output.splice(0, output.length - 400);
    if (opts.log) for (const line of text.split('\n')) if (line.trim()) opts.log(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = null;
  const exitPromise = new Promise((res) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      res(exited);
    }),
  );

  let stopped = false;
  async function stop() {
    if (stopped) return;
    stopped = true;
    if (exited === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 5000);
      await exitPromise;
      clearTimeout(timer);
    }
    // workerd children may outlive wrangler for a moment: make sure the group is gone.
    for (let i = 0; i < 50 && groupAlive(child.pid); i++) {
      if (i === 20) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    rmSync(persistDir, { recursive: true, force: true });
  }

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (exited) throw new Error(`wrangler dev exited early (${JSON.stringify(exited)}):\n${output.join('')}`);
    try {
      const res = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok && (await res.json()).status === 'ok') break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer /api/health within the timeout:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { origin, port, persistDir, pid: child.pid, stop, output: () => output.join('') };
}

/** True while any process of the group led by pid still exists. */
export function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
