// Runs on the system Node (20 on a fresh machine): no dependencies, only node: built-ins.
// Makes sure a Node >= 22.13 (wrangler needs 22.12; the test helpers read local D1 with node:sqlite,
// unflagged from 22.13) and pnpm exist inside the project, installs the workspace from the frozen
// lockfile when it changed, and returns how to run things with them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const NODE_VERSION = '24.21.0';
const PNPM_VERSION = '10.34.9';

function atLeast(version, [maj, min]) {
  const [a, b] = version.split('.').map(Number);
  return a > maj || (a === maj && b >= min);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) {
    console.error(`✗ ${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
    process.exit(r.status ?? 1);
  }
}

function npmInstallInto(prefix, spec) {
  mkdirSync(prefix, { recursive: true });
  // npm from the system Node fetches from the npm registry only; no lockfile in .tools.
  run('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', spec]);
}

/** Path of a Node binary >= 22.13: the current one if new enough, else one fetched from the registry. */
export function ensureNode() {
  if (atLeast(process.versions.node, [22, 13])) return process.execPath;
  const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const prefix = join(tools, `node-${NODE_VERSION}`);
  const bin = join(prefix, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(bin)) {
    console.log(`› System Node ${process.versions.node} is older than 22.13: fetching Node ${NODE_VERSION} (${pkg}) from the npm registry…`);
    npmInstallInto(prefix, `${pkg}@${NODE_VERSION}`);
  }
  return bin;
}

export function ensurePnpm() {
  const prefix = join(tools, `pnpm-${PNPM_VERSION}`);
  const cli = join(prefix, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(cli)) {
    console.log(`› Fetching pnpm ${PNPM_VERSION} from the npm registry…`);
    npmInstallInto(prefix, `pnpm@${PNPM_VERSION}`);
  }
  return cli;
}

/** Environment in which `node`, `pnpm` and the workspace's bins resolve to the project's toolchain. */
export function toolchainEnv(nodeBin, pnpmCli) {
  const shim = join(tools, 'bin');
  mkdirSync(shim, { recursive: true });
  const pnpmShim = join(shim, 'pnpm');
  const body = `#!/bin/sh\nexec "${nodeBin}" "${pnpmCli}" "$@"\n`;
  if (!existsSync(pnpmShim) || readFileSync(pnpmShim, 'utf8') !== body) writeFileSync(pnpmShim, body, { mode: 0o755 });
  const path = [dirname(nodeBin), shim, join(root, 'node_modules', '.bin'), process.env.PATH].join(':');
  return {
    ...process.env,
    PATH: path,
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    CLOUDFLARE_SEND_METRICS: 'false',
    DO_NOT_TRACK: '1',
    NO_UPDATE_NOTIFIER: '1',
  };
}

/** pnpm install --frozen-lockfile, skipped when the lockfile has not changed since the last install. */
export function ensureWorkspace(env) {
  const lock = join(root, 'pnpm-lock.yaml');
  const stamp = join(root, 'node_modules', '.afterword-install-stamp');
  const want = existsSync(lock) ? `${statSync(lock).mtimeMs}:${readFileSync(lock, 'utf8').length}` : 'none';
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  console.log('› Installing the workspace (pnpm, frozen lockfile)…');
  run('pnpm', ['install', '--frozen-lockfile', '--reporter=append-only'], { env });
  writeFileSync(stamp, want);
}

export function setup() {
  const nodeBin = ensureNode();
  const pnpmCli = ensurePnpm();
  const env = toolchainEnv(nodeBin, pnpmCli);
  ensureWorkspace(env);
  return { nodeBin, env };
}
