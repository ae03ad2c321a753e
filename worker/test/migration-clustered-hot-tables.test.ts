import { applyD1Migrations, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

/**
 * Migrations 0034 and 0036 rebuild activity, owner_notice_deliveries, check_in_links and canary_transitions
 * WITHOUT ROWID, keyed as they are read (docs/performance.md, "Rows stored in their key's order"); 0039 rebuilds
 * check_in_links without its foreign key on users, 0040 owner_notices WITHOUT ROWID with its deliveries carried
 * across (a parent with a cascading child: "A warning's notice, a row fewer"), and 0041 canary_transitions with a
 * foreign key on its canary in place of its owner's index. This applies them to a populated
 * database (an empty D1 of its own, MIGRATION_TEST_DB) and checks that nothing was lost, that a row inserted now
 * costs fewer rows written, and that the owner's deletion still takes every row with it.
 */
const db = env.MIGRATION_TEST_DB;
const NAME = '0034_clustered_hot_tables.sql';
const TABLES = ['activity', 'owner_notices', 'owner_notice_deliveries', 'check_in_links', 'canary_transitions'];

const before = () => {
  const at = env.TEST_MIGRATIONS.findIndex((m) => m.name === NAME); // the first of the two
  if (at < 0) throw new Error(`${NAME} is not among the migrations`);
  return env.TEST_MIGRATIONS.slice(0, at);
};

const rows = async (table: string) => (await db.prepare(`SELECT * FROM ${table} ORDER BY ${table === 'check_in_links' ? 'token_hash' : 'id'}`).all()).results;
const TRANSITION = `INSERT INTO canary_transitions (id, canary_id, user_id, cycle_deadline, kind, misses, due_at, fired_at, counts_from, emitted_at, recorded_by)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4, ?4, ?7, ?8, 'alarm')`;
const T = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

async function populate() {
  await db.batch([
    db.prepare("INSERT INTO users (id, email, data_policy_region, created_at, updated_at) VALUES ('u-owner', 'owner@example.com', 'EU', ?1, ?1)").bind(T),
    db.prepare("INSERT INTO users (id, email, data_policy_region, created_at, updated_at) VALUES ('u-other', 'other@example.com', 'EU', ?1, ?1)").bind(T),
    db
      .prepare(
        `INSERT INTO canaries (id, user_id, name, interval_seconds, token_hash, last_check_in, created_at)
         VALUES ('c-1', 'u-owner', 'Daily', 86400, 'hash-c1', ?1, ?1), ('c-2', 'u-other', 'Weekly', 604800, 'hash-c2', ?1, ?1)`,
      )
      .bind(T),
    db
      .prepare(
        `INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at)
         VALUES ('a-1', 'u-owner', 'c-1', 'check_in', 'ping', 'Checked in by ping: "Daily".', ?1),
                ('a-2', 'u-owner', 'c-1', 'check_in', 'ping', 'Checked in by ping: "Daily".', ?1),
                ('a-3', 'u-owner', NULL, 'deadman_cancelled', 'system', 'Cancelled.', ?2),
                ('a-4', 'u-other', 'c-2', 'reminder', 'system', 'Reminder sent.', ?2)`,
      )
      .bind(T + 1000, T + 2000),
    db
      .prepare(
        `INSERT INTO owner_notices (id, user_id, kind, subject, text, status, due_at, created_at, canary_id)
         VALUES ('n-1', 'u-owner', 'canary_warning', 'Check in', 'Please check in.', 'sent', ?1, ?1, 'c-1'),
                ('n-2', 'u-other', 'canary_warning', 'Check in', 'Please check in.', 'pending', ?1, ?1, 'c-2')`,
      )
      .bind(T),
    db
      .prepare(
        `INSERT INTO owner_notice_deliveries (id, notice_id, user_id, channel, address, ok, error, at)
         VALUES ('d-1', 'n-1', 'u-owner', 'email', 'o***@example.com', 0, 'mailbox full', ?1),
                ('d-2', 'n-1', 'u-owner', 'sms', '+44 ••• 12', 1, NULL, ?2),
                ('d-3', 'n-2', 'u-other', 'email', 'o***@example.com', 0, 'timed out', ?2)`,
      )
      .bind(T + 10, T + 20),
    db
      .prepare(
        `INSERT INTO check_in_links (token_hash, user_id, canary_id, notice_id, created_at, expires_at, used_at)
         VALUES ('h-1', 'u-owner', 'c-1', 'n-1', ?1, ?2, ?1), ('h-2', 'u-other', 'c-2', 'n-2', ?1, ?2, NULL)`,
      )
      .bind(T, T + 86_400_000),
    db.prepare(TRANSITION).bind('t-1', 'c-1', 'u-owner', T + DAY, 'grace_reminder', 0, null, T + DAY),
    db.prepare(TRANSITION).bind('t-2', 'c-1', 'u-owner', T + DAY, 'missed', 1, T + DAY + 1, null),
    db.prepare(TRANSITION).bind('t-3', 'c-2', 'u-other', T + 7 * DAY, 'missed', 1, null, null),
    // An event of a canary deleted before 0041 (no foreign key then): what 0041's rule deletes, so not carried over.
    db.prepare(TRANSITION).bind('t-gone', 'c-gone', 'u-owner', T + DAY, 'missed', 1, null, null),
  ]);
}

describe('migrations 0034, 0036, 0039, 0040 and 0041: the hot tables stored in their key’s order', () => {
  it('keeps every row, leaves nothing of the rebuild behind, and every foreign key holds', async () => {
    await applyD1Migrations(db, before());
    await populate();
    const snapshot = Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await rows(t)] as const)));
    for (const t of TABLES) expect(snapshot[t]!.length, t).toBeGreaterThan(1);

    await applyD1Migrations(db, env.TEST_MIGRATIONS);

    for (const name of [
      NAME,
      '0036_transitions_by_key.sql',
      '0039_deletions_follow_indexes.sql',
      '0040_owner_notices_by_key.sql',
      '0041_transitions_go_with_their_canary.sql',
    ])
      expect(await db.prepare('SELECT name FROM d1_migrations WHERE name = ?').bind(name).first(), name).not.toBeNull();
    for (const [table, was] of Object.entries(snapshot)) {
      const kept = table === 'canary_transitions' ? was.filter((r) => r.canary_id !== 'c-gone') : was;
      expect(await rows(table), table).toEqual(kept);
    }
    expect(snapshot.canary_transitions!.some((r) => r.canary_id === 'c-gone')).toBe(true);
    const tables = await db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name IN ('activity', 'owner_notices', 'owner_notice_deliveries', 'check_in_links')`,
      )
      .all<{ name: string; sql: string }>();
    expect(tables.results).toHaveLength(4);
    for (const t of tables.results) expect(t.sql, t.name).toMatch(/WITHOUT ROWID$/);
    const leftovers = await db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '\\_\\_%' ESCAPE '\\'").all();
    expect(leftovers.results).toEqual([]);
    const indexes = await db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (${TABLES.map((t) => `'${t}'`).join(', ')}) AND sql IS NOT NULL ORDER BY name`,
      )
      .all();
    expect(indexes.results.map((r) => r.name)).toEqual([
      'canary_transitions_unemitted_idx',
      'check_in_links_canary_idx',
      'owner_notices_pending_idx',
      'owner_notices_user_idx',
    ]);
    expect((await db.prepare('PRAGMA foreign_key_check').all()).results).toEqual([]);
  });

  it('after them, an activity line is one row written, a notice three, a delivery one, a link two, a timer event one; the same again none', async () => {
    const line = db.prepare(
      "INSERT INTO activity (id, user_id, canary_id, kind, source, summary, created_at) VALUES ('a-5', 'u-owner', 'c-1', 'check_in', 'ping', 'Checked in.', ?1) ON CONFLICT DO NOTHING",
    );
    expect((await line.bind(T + 3000).run()).meta.rows_written).toBe(1);
    expect((await line.bind(T + 3000).run()).meta.rows_written).toBe(0);
    // A pending notice: its row, the owner's index and the pending index (a rowid table wrote its key's index too).
    const notice = await db
      .prepare(
        "INSERT INTO owner_notices (id, user_id, kind, subject, text, status, due_at, created_at, canary_id) VALUES ('n-3', 'u-owner', 'canary_warning', 'Check in', 'Please.', 'pending', ?1, ?1, 'c-1')",
      )
      .bind(T + 40)
      .run();
    expect(notice.meta.rows_written).toBe(3);
    // Marked sent: one row written, as D1 counts it (its entry leaving the pending index is not counted).
    expect(
      (
        await db
          .prepare("UPDATE owner_notices SET status = 'sent', sent_at = ?1 WHERE id = 'n-3'")
          .bind(T + 50)
          .run()
      ).meta.rows_written,
    ).toBe(1);
    const delivery = await db
      .prepare(
        "INSERT INTO owner_notice_deliveries (id, notice_id, user_id, channel, address, ok, at) VALUES ('d-4', 'n-1', 'u-owner', 'push', 'this phone', 1, ?1)",
      )
      .bind(T + 30)
      .run();
    expect(delivery.meta.rows_written).toBe(1);
    const link = await db
      .prepare("INSERT INTO check_in_links (token_hash, user_id, canary_id, notice_id, created_at, expires_at) VALUES ('h-3', 'u-owner', 'c-1', 'n-1', ?1, ?1)")
      .bind(T)
      .run();
    expect(link.meta.rows_written).toBe(2);
    // A timer event that arrives emitted: its row alone (0041 took the owner's index); the same event again is ignored by its key.
    const event = db.prepare(TRANSITION).bind('t-4', 'c-1', 'u-owner', T + 2 * DAY, 'grace_reminder', 0, null, T + 2 * DAY);
    expect((await event.run()).meta.rows_written).toBe(1);
    const again = await db
      .prepare(TRANSITION.replace('INSERT INTO', 'INSERT OR IGNORE INTO'))
      .bind('t-5', 'c-1', 'u-owner', T + 2 * DAY, 'grace_reminder', 0, null, T + 2 * DAY)
      .run();
    expect(again.meta.rows_written).toBe(0);
  });

  it('after them, deleting the owner takes their lines, deliveries and links, and leaves the other person’s', async () => {
    await db.prepare("DELETE FROM users WHERE id = 'u-owner'").run();
    // Every table goes with the owner: canary_transitions and check_in_links through the owner's canaries.
    for (const table of TABLES) {
      const left = (await rows(table)) as { user_id: string }[];
      expect(left.length, table).toBeGreaterThan(0);
      expect(
        left.every((r) => r.user_id === 'u-other'),
        table,
      ).toBe(true);
    }
  });
});
