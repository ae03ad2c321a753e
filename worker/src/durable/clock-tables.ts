import type { ClockCheckIn } from '../contracts/jobs';
import { logFromRows } from './check-in-log';

/**
 * The canary object's own SQLite tables (durable/canary-clock.ts): created when any is missing, the
 * state of an object from the first edge release moved into them, an earlier release's rowid tables
 * rebuilt WITHOUT ROWID, and its `check_ins` table folded into the clock's row.
 */

/**
 * The object's own tables, by name (created when any is missing). The recent check-ins are a column of the
 * clock's row (`check_ins`, JSON: durable/check-in-log.ts), which a check-in writes anyway: one row written
 * per check-in. The tables written on each wake are WITHOUT ROWID, keyed by what identifies a row, with no
 * second index: each insert, update or delete then writes one row, where a rowid table with a text key wrote
 * the key's index too. Cloudflare bills an object's rows written as D1's (docs/performance.md "The objects'
 * own storage"). Each table holds a handful of rows — the current cycle's timer events — so the lookups by
 * other columns scan them.
 */
const SCHEMA = {
  canary_clock: `CREATE TABLE IF NOT EXISTS canary_clock (
      one INTEGER PRIMARY KEY CHECK (one = 1), id TEXT NOT NULL, user_id TEXT NOT NULL DEFAULT '', name TEXT NOT NULL DEFAULT '',
      interval_seconds INTEGER NOT NULL DEFAULT 0, last_check_in INTEGER NOT NULL DEFAULT 0, token_version INTEGER NOT NULL DEFAULT 0,
      timer_due_at INTEGER, gone INTEGER NOT NULL DEFAULT 0, check_ins TEXT NOT NULL DEFAULT '[]')`,
  // A timer event once per cycle, kind and number of misses: its key (the engine's INSERT OR IGNORE relies on it).
  // The object's own columns, not D1's: `recheck_at`, no earlier than which a warning whose notice waits in D1 is
  // looked at again; `activity`, the feed line the event's wake wrote (JSON), until it is projected into D1.
  transitions: `CREATE TABLE IF NOT EXISTS transitions (
      cycle_deadline INTEGER NOT NULL, kind TEXT NOT NULL, misses INTEGER NOT NULL, id TEXT NOT NULL, due_at INTEGER NOT NULL,
      fired_at INTEGER NOT NULL, counts_from INTEGER, emitted_at INTEGER, delivery_channel TEXT, delivery_status TEXT,
      delivered_at INTEGER, recorded_by TEXT NOT NULL, projected INTEGER NOT NULL DEFAULT 0, recheck_at INTEGER, activity TEXT,
      PRIMARY KEY (cycle_deadline, kind, misses)) WITHOUT ROWID`,
  // Where an earlier release kept a wake's feed lines until projected (now the `activity` column of their event): read until empty.
  pending_activity: 'CREATE TABLE IF NOT EXISTS pending_activity (id TEXT PRIMARY KEY, row TEXT NOT NULL) WITHOUT ROWID',
  // A table of its own (not new columns of canary_clock): an object from before gets it from the
  // constructor's one schema check, with no ALTER TABLE and no extra read on every construction.
  canary_cadence: `CREATE TABLE IF NOT EXISTS canary_cadence (
      one INTEGER PRIMARY KEY CHECK (one = 1), schedule TEXT, paused_until INTEGER)`,
};

/** Columns `transitions` gained after it became WITHOUT ROWID: added to an object's table that lacks them. */
const ADDED_TRANSITION_COLUMNS = [
  ['recheck_at', 'INTEGER'],
  ['activity', 'TEXT'],
] as const;

/** The tables an earlier release created as rowid tables: rebuilt once, rows kept. */
const REBUILT_WITHOUT_ROWID = ['transitions', 'pending_activity'] as const;

/**
 * Creates what is missing. The object is built again after every eviction (each wake of an idle canary): one
 * read of the schema, not five statements, when it is complete (docs/performance.md, "What the local runtime costs").
 */
export function ensureClockTables(sql: SqlStorage) {
  const present = new Map(
    sql
      .exec<{ name: string; sql: string | null }>(`SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index')`)
      .toArray()
      .map((r) => [r.name, r.sql ?? ''] as const),
  );
  if (!Object.keys(SCHEMA).every((name) => present.has(name))) for (const ddl of Object.values(SCHEMA)) sql.exec(ddl);
  const clock = present.get('canary_clock');
  if (clock && !/\bcheck_ins\b/.test(clock)) sql.exec(`ALTER TABLE canary_clock ADD COLUMN check_ins TEXT NOT NULL DEFAULT '[]'`);
  if (present.has('clock')) migrateFromCheckInClock(sql);
  for (const table of REBUILT_WITHOUT_ROWID) {
    const ddl = present.get(table);
    if (ddl && !/WITHOUT ROWID/i.test(ddl)) rebuildWithoutRowid(sql, table);
  }
  const transitions = present.get('transitions');
  if (transitions && /WITHOUT ROWID/i.test(transitions)) {
    for (const [column, type] of ADDED_TRANSITION_COLUMNS) {
      if (!new RegExp(`\\b${column}\\b`).test(transitions)) sql.exec(`ALTER TABLE transitions ADD COLUMN ${column} ${type}`);
    }
  }
  if (present.has('check_ins')) foldCheckInsTable(sql);
}

/**
 * Moves the `check_ins` table of an earlier release into the clock's row (every row kept, as sent and applied
 * as it was; a table without the `applied` column counts none applied, so a settle writes them again:
 * idempotent), then drops it with its index.
 */
function foldCheckInsTable(sql: SqlStorage) {
  const applied = sql
    .exec<{ name: string }>(`SELECT name FROM pragma_table_info('check_ins')`)
    .toArray()
    .some((c) => c.name === 'applied');
  const rows = sql
    .exec<{ event_id: string; at: number; source: ClockCheckIn['source']; sent: number; applied: number }>(
      `SELECT event_id, at, source, sent, ${applied ? 'applied' : '0 AS applied'} FROM check_ins`,
    )
    .toArray();
  if (rows.length) sql.exec('UPDATE canary_clock SET check_ins = ?', logFromRows(rows));
  sql.exec('DROP TABLE check_ins');
}

/**
 * Moves a table of an earlier release to its WITHOUT ROWID layout: renamed aside, created anew, its rows
 * copied by column name (a column the old one lacks takes its default), the old one (and its indexes) dropped.
 * The object runs this inside its constructor, before any call reaches it, so nothing reads half of it.
 */
function rebuildWithoutRowid(sql: SqlStorage, table: (typeof REBUILT_WITHOUT_ROWID)[number]) {
  const old = `${table}_before_without_rowid`;
  sql.exec(`ALTER TABLE ${table} RENAME TO ${old}`);
  sql.exec(SCHEMA[table]);
  const kept = new Set(
    sql
      .exec<{ name: string }>(`SELECT name FROM pragma_table_info('${old}')`)
      .toArray()
      .map((c) => c.name),
  );
  const columns = sql
    .exec<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
    .toArray()
    .map((c) => c.name)
    .filter((c) => kept.has(c));
  sql.exec(`INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM ${old}`);
  sql.exec(`DROP TABLE ${old}`);
}

/**
 * An object of the first edge release kept its state in a `clock` table, without its owner: the state moves
 * here and the object's `load` completes it from D1 on first touch. Its check-ins (a table without an
 * `applied` mark) are folded in after it (foldCheckInsTable).
 */
function migrateFromCheckInClock(sql: SqlStorage) {
  if (!sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'clock'`).toArray().length) return;
  // Its timer is its alarm: `timer_due_at` holds one only while a resend's alarm comes first (durable/canary-clock.ts).
  sql.exec(`INSERT OR IGNORE INTO canary_clock (one, id, interval_seconds, last_check_in, token_version, gone)
            SELECT 1, canary_id, interval_seconds, last_check_in, token_version, gone FROM clock`);
  sql.exec('DROP TABLE clock');
}
