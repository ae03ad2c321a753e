/**
 * The canary object's own SQLite tables (durable/canary-clock.ts): created when any is missing, and the
 * state of an object from the first edge release moved into them.
 */

/** The object's own tables and index, by name (created when any is missing). */
const SCHEMA = {
  canary_clock: `CREATE TABLE IF NOT EXISTS canary_clock (
      one INTEGER PRIMARY KEY CHECK (one = 1), id TEXT NOT NULL, user_id TEXT NOT NULL DEFAULT '', name TEXT NOT NULL DEFAULT '',
      interval_seconds INTEGER NOT NULL DEFAULT 0, last_check_in INTEGER NOT NULL DEFAULT 0, token_version INTEGER NOT NULL DEFAULT 0,
      timer_due_at INTEGER, gone INTEGER NOT NULL DEFAULT 0)`,
  check_ins: `CREATE TABLE IF NOT EXISTS check_ins (
      event_id TEXT PRIMARY KEY, at INTEGER NOT NULL, source TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0, applied INTEGER NOT NULL DEFAULT 0)`,
  check_ins_at: 'CREATE INDEX IF NOT EXISTS check_ins_at ON check_ins (at)',
  transitions: `CREATE TABLE IF NOT EXISTS transitions (
      id TEXT PRIMARY KEY, cycle_deadline INTEGER NOT NULL, kind TEXT NOT NULL, misses INTEGER NOT NULL, due_at INTEGER NOT NULL,
      fired_at INTEGER NOT NULL, counts_from INTEGER, emitted_at INTEGER, delivery_channel TEXT, delivery_status TEXT,
      delivered_at INTEGER, recorded_by TEXT NOT NULL, projected INTEGER NOT NULL DEFAULT 0, UNIQUE (cycle_deadline, kind, misses))`,
  pending_activity: 'CREATE TABLE IF NOT EXISTS pending_activity (id TEXT PRIMARY KEY, row TEXT NOT NULL)',
  // A table of its own (not new columns of canary_clock): an object from before gets it from the
  // constructor's one schema check, with no ALTER TABLE and no extra read on every construction.
  canary_cadence: `CREATE TABLE IF NOT EXISTS canary_cadence (
      one INTEGER PRIMARY KEY CHECK (one = 1), schedule TEXT, paused_until INTEGER)`,
};

/**
 * Creates what is missing. The object is built again after every eviction (each wake of an idle canary): one
 * read of the schema, not five statements, when it is complete (docs/performance.md, "What the local runtime costs").
 */
export function ensureClockTables(sql: SqlStorage) {
  const present = new Set(
    sql
      .exec<{ name: string }>(`SELECT name FROM sqlite_master WHERE type IN ('table', 'index')`)
      .toArray()
      .map((r) => r.name),
  );
  if (!Object.keys(SCHEMA).every((name) => present.has(name))) for (const ddl of Object.values(SCHEMA)) sql.exec(ddl);
  if (present.has('clock')) migrateFromCheckInClock(sql);
}

/**
 * An object of the first edge release kept its state in a `clock` table, without its owner, and its
 * check-ins without an `applied` mark: the state moves here and the object's `load` completes it from D1 on
 * first touch; its check-ins stay (those not yet sent are sent) and count as not yet applied, so a settle
 * writes them again (idempotent).
 */
export function migrateFromCheckInClock(sql: SqlStorage) {
  if (!sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'clock'`).toArray().length) return;
  const columns = sql.exec<{ name: string }>(`SELECT name FROM pragma_table_info('check_ins')`).toArray();
  if (!columns.some((c) => c.name === 'applied')) sql.exec('ALTER TABLE check_ins ADD COLUMN applied INTEGER NOT NULL DEFAULT 0');
  sql.exec(`INSERT OR IGNORE INTO canary_clock (one, id, interval_seconds, last_check_in, token_version, timer_due_at, gone)
            SELECT 1, canary_id, interval_seconds, last_check_in, token_version, timer_due_at, gone FROM clock`);
  sql.exec('DROP TABLE clock');
}
