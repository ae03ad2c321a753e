import { applyD1Migrations, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

/**
 * Migration 0022 rebuilds `messages` (recipient_user_id nullable, ON DELETE SET NULL). In D1 the rebuild's
 * DROP TABLE runs the cascade into every child table, so the migration puts the children's rows aside and
 * restores them. This applies it to a populated database (an empty D1 of its own, MIGRATION_TEST_DB) and
 * checks that nothing was lost.
 */
const db = env.MIGRATION_TEST_DB;
const NAME = '0022_messages_recipient_left.sql';
const CHILDREN = ['deliveries', 'delivery_log', 'message_attachments', 'message_transitions'];

const placeOf = () => {
  const at = env.TEST_MIGRATIONS.findIndex((m) => m.name === NAME);
  if (at < 0) throw new Error(`${NAME} is not among the migrations`);
  return at;
};
const before = () => env.TEST_MIGRATIONS.slice(0, placeOf());
/** Up to this migration and no further: a later one may add columns to the rows compared. */
const through = () => env.TEST_MIGRATIONS.slice(0, placeOf() + 1);

const rows = async (table: string) => (await db.prepare(`SELECT * FROM ${table} ORDER BY id`).all()).results;

/** Tables with a foreign key to messages, read from the database itself (D1 refuses pragma_foreign_key_list in a SELECT). */
async function childrenOfMessages(): Promise<string[]> {
  const { results } = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'messages' ORDER BY name").all<{ name: string }>();
  const children: string[] = [];
  for (const { name } of results) {
    if (name.startsWith('_cf_')) continue;
    const keys = await db.prepare(`PRAGMA foreign_key_list(${name})`).all<{ table: string }>();
    if (keys.results.some((k) => k.table === 'messages')) children.push(name);
  }
  return children;
}

async function populate() {
  const t = Date.UTC(2026, 0, 1);
  const users = ['sender', 'recipient', 'other'].map((who) =>
    db
      .prepare('INSERT INTO users (id, email, data_policy_region, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .bind(`u-${who}`, `${who}@example.com`, 'EU', t, t),
  );
  const message = (id: string, to: string, status: string, releasedAt: number | null) =>
    db
      .prepare(
        `INSERT INTO messages (id, sender_id, recipient_user_id, content, deliver_at, delivery_method, rules, status, version, released_at,
           audio_key, created_at, updated_at, read_at)
         VALUES (?, 'u-sender', ?, ?, ?, 'email', '[]', ?, 2, ?, ?, ?, ?, ?)`,
      )
      .bind(id, to, `text of ${id}`, t + 86_400_000, status, releasedAt, `audio/${id}`, t, t, releasedAt ? releasedAt + 5 : null);
  const transition = (id: string, messageId: string, from: string | null, to: string, at: number) =>
    db
      .prepare(
        'INSERT INTO message_transitions (id, message_id, from_status, to_status, cause, detail, dedupe_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .bind(id, messageId, from, to, from ? 'deliver_at' : 'created', `${messageId}: ${to}`, from ? `key-${id}` : null, at);
  await db.batch([
    ...users,
    message('m-pending', 'u-recipient', 'scheduled', null),
    message('m-released', 'u-recipient', 'delivered', t + 1000),
    message('m-other', 'u-other', 'releasing', t + 2000),
    transition('t1', 'm-pending', null, 'scheduled', t),
    transition('t2', 'm-released', null, 'scheduled', t),
    transition('t3', 'm-released', 'scheduled', 'releasing', t + 1000),
    transition('t4', 'm-released', 'releasing', 'delivered', t + 1500),
    transition('t5', 'm-other', null, 'scheduled', t),
    db
      .prepare(
        `INSERT INTO deliveries (id, message_id, channel, status, attempts, next_attempt_at, lease_until, last_error, provider_id, created_at, updated_at)
         VALUES ('d1', 'm-released', 'email', 'delivered', 2, ?1, NULL, 'first try timed out', 'prov-1', ?1, ?1),
                ('d2', 'm-other', 'email', 'retrying', 1, ?1, ?1, 'busy', NULL, ?1, ?1)`,
      )
      .bind(t + 2000),
    db
      .prepare(
        `INSERT INTO delivery_log (id, message_id, delivery_id, channel, attempt, success, error, created_at)
         VALUES ('l1', 'm-released', NULL, 'inbox', 1, 1, NULL, ?1), ('l2', 'm-released', 'd1', 'email', 1, 0, 'timed out', ?1),
                ('l3', 'm-released', 'd1', 'email', 2, 1, NULL, ?1), ('l4', 'm-other', 'd2', 'email', 1, 0, 'busy', ?1)`,
      )
      .bind(t + 1200),
    db
      .prepare(
        `INSERT INTO message_attachments (id, message_id, owner_id, r2_key, iv, name, size, created_at)
         VALUES ('a1', 'm-pending', 'u-sender', 'att/a1', 'iv1', 'letter.pdf', 1234, ?1), ('a2', 'm-released', 'u-sender', 'att/a2', 'iv2', 'photo.jpg', 99, ?1)`,
      )
      .bind(t),
  ]);
}

describe('migration 0022: messages.recipient_user_id becomes nullable (ON DELETE SET NULL)', () => {
  it('keeps every message and every row of every child table of messages', async () => {
    await applyD1Migrations(db, before());
    // The migration restores these four: a fifth child table would be emptied by the rebuild.
    expect(await childrenOfMessages()).toEqual(CHILDREN);
    await populate();
    const snapshot = Object.fromEntries(await Promise.all(['messages', ...CHILDREN].map(async (t) => [t, await rows(t)] as const)));
    for (const t of CHILDREN) expect(snapshot[t]!.length, t).toBeGreaterThan(0);

    await applyD1Migrations(db, through());

    const applied = await db.prepare('SELECT name FROM d1_migrations WHERE name = ?').bind(NAME).first();
    expect(applied).not.toBeNull();
    for (const [table, was] of Object.entries(snapshot)) expect(await rows(table), table).toEqual(was);
    expect(await childrenOfMessages()).toEqual(CHILDREN);
    // No table of the rebuild is left behind, every index is back and every foreign key holds.
    const leftovers = await db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '\\_\\_%' ESCAPE '\\'").all();
    expect(leftovers.results).toEqual([]);
    const indexes = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL ORDER BY name").all();
    expect(indexes.results.map((r) => r.name)).toEqual(['messages_recipient_idx', 'messages_sender_idx', 'messages_timer_idx', 'messages_vault_once']);
    expect((await db.prepare('PRAGMA foreign_key_check').all()).results).toEqual([]);
  });

  it('after it, deleting a recipient keeps the messages sent to them, with no recipient, and all their history', async () => {
    const historyBefore = await Promise.all(CHILDREN.map(rows));
    await db.prepare("DELETE FROM users WHERE id = 'u-recipient'").run();
    const left = await db.prepare("SELECT id, recipient_user_id FROM messages WHERE sender_id = 'u-sender' ORDER BY id").all();
    expect(left.results).toEqual([
      { id: 'm-other', recipient_user_id: 'u-other' },
      { id: 'm-pending', recipient_user_id: null },
      { id: 'm-released', recipient_user_id: null },
    ]);
    expect(await Promise.all(CHILDREN.map(rows))).toEqual(historyBefore);
    // A sender's deletion still takes their messages and their history with them.
    await db.prepare("DELETE FROM users WHERE id = 'u-sender'").run();
    for (const table of ['messages', ...CHILDREN]) expect(await rows(table), table).toEqual([]);
  });
});
