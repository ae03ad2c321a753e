// Reads what the Worker stored, the way an attacker with the disk would: SQL through
// `wrangler d1 execute --local` on the same persist dir, and the raw bytes of every file under it
// (D1's SQLite files and WAL, R2's blobs, Durable Object storage).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './worker-server.mjs';

/** Runs `wrangler d1 execute DB --local --persist-to persistDir …args`; resolves to its stdout. */
function wranglerD1(persistDir, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(join(repoRoot, 'node_modules', '.bin', 'wrangler'), ['d1', 'execute', 'DB', '--local', '--persist-to', persistDir, ...args], {
      cwd: repoRoot,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`wrangler d1 execute ${args.join(' ').slice(0, 300)} failed (${code}):\n${out.slice(-3000)}\n${err.slice(-3000)}`));
      else resolve(out);
    });
  });
}

/** Runs SQL on the local D1 in `persistDir`; resolves to the result rows. */
export async function d1(persistDir, sql) {
  const out = await wranglerD1(persistDir, ['--json', '--command', sql]);
  try {
    return JSON.parse(out.slice(out.indexOf('['))).flatMap((r) => r.results ?? []);
  } catch (e) {
    throw new Error(`could not parse wrangler d1 output: ${e.message}\n${out.slice(0, 2000)}`);
  }
}

/**
 * Runs several statements in one `wrangler d1 execute` and resolves to one row array per statement.
 * Starting wrangler is most of the cost of a query (seconds on a busy machine), so a dump of every
 * table is one process, not one per table. Statements must not contain ';' themselves.
 */
export async function d1Batch(persistDir, statements) {
  if (statements.length === 0) return [];
  const out = await wranglerD1(persistDir, ['--json', '--command', statements.join(';\n')]);
  let results;
  try {
    results = JSON.parse(out.slice(out.indexOf('[')));
  } catch (e) {
    throw new Error(`could not parse wrangler d1 output: ${e.message}\n${out.slice(0, 2000)}`);
  }
  if (results.length !== statements.length) throw new Error(`wrangler d1 answered ${results.length} results for ${statements.length} statements`);
  return results.map((r) => r.results ?? []);
}

/** Runs a whole SQL script (e.g. thousands of seed INSERTs) on the local D1 in `persistDir`, as one file. */
export async function d1File(persistDir, sql) {
  const dir = mkdtempSync(join(tmpdir(), 'afterword-sql-'));
  try {
    const file = join(dir, 'script.sql');
    writeFileSync(file, sql);
    await wranglerD1(persistDir, ['--yes', '--file', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every regular file under `dir`, with its bytes. */
export function readTree(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (s.isFile()) out.push({ path: p, bytes: readFileSync(p) });
    }
  };
  walk(dir);
  return out;
}

/** The files under `dir` whose raw bytes contain `needle` (a string, as UTF-8, or a Buffer). */
export function filesContaining(tree, needle) {
  const n = Buffer.isBuffer(needle) ? needle : Buffer.from(needle, 'utf8');
  return tree.filter((f) => f.bytes.includes(n)).map((f) => f.path);
}
