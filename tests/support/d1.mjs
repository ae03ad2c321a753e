// Reads what the Worker stored, the way an attacker with the disk would: SQL straight on the local D1's
// SQLite file in the Worker's persist dir (node:sqlite, no wrangler process per query), and the raw bytes
// of every file under it (D1's SQLite files and WAL, R2's blobs, Durable Object storage). workerd keeps
// that file in SQLite's ordinary locking mode, so a second process reads committed rows and its writes
// wait for workerd's transactions (busy_timeout) as `wrangler d1 execute --local` would.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The SQLite file of the DB binding under `persistDir` (wrangler's v3 layout: one file per database). */
function databaseFile(persistDir) {
  const dir = join(persistDir, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const files = readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`expected one D1 database file in ${dir}, found ${files.length}: ${files.join(', ')}`);
  return join(dir, files[0]);
}

/** Rows as plain objects, as a JSON answer would give them (node:sqlite's rows have no prototype). */
const plain = (rows) => rows.map((row) => ({ ...row }));

function withDatabase(persistDir, use) {
  const db = new DatabaseSync(databaseFile(persistDir));
  try {
    db.exec('PRAGMA busy_timeout = 30000');
    return use(db);
  } finally {
    db.close();
  }
}

/** Runs one SQL statement on the local D1 in `persistDir`; resolves to the result rows (none for a write). */
export async function d1(persistDir, sql) {
  return withDatabase(persistDir, (db) => plain(db.prepare(sql).all()));
}

/** Runs several statements, in order, in one transaction; resolves to one row array per statement. */
export async function d1Batch(persistDir, statements) {
  if (statements.length === 0) return [];
  return withDatabase(persistDir, (db) => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const results = statements.map((sql) => plain(db.prepare(sql).all()));
      db.exec('COMMIT');
      return results;
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
  });
}

/** Runs a whole SQL script (e.g. thousands of seed INSERTs) on the local D1 in `persistDir`, in one transaction. */
export async function d1File(persistDir, sql) {
  withDatabase(persistDir, (db) => db.exec(`BEGIN IMMEDIATE;\n${sql}\nCOMMIT;`));
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

/**
 * The check-ins the canaries' Durable Objects hold (each object's log: worker/src/durable/check-in-log.ts, its last
 * 100 and every one still owed to D1), counted straight from their SQLite files under `persistDir`.
 */
export function objectsCheckIns(persistDir) {
  const root = join(persistDir, 'v3', 'do');
  let n = 0;
  for (const dir of readdirSync(root).filter((d) => d.endsWith('CanaryClock'))) {
    for (const file of readdirSync(join(root, dir)).filter((f) => f.endsWith('.sqlite'))) {
      const db = new DatabaseSync(join(root, dir, file), { readOnly: true });
      try {
        db.exec('PRAGMA busy_timeout = 30000');
        const row = db.prepare('SELECT check_ins FROM canary_clock').get();
        n += row ? JSON.parse(row.check_ins).length : 0;
      } catch {
        // An object with no clock row yet (never checked in) holds none.
      } finally {
        db.close();
      }
    }
  }
  return n;
}
