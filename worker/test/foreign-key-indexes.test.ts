import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

/**
 * A deletion reads what it deletes (docs/performance.md): SQLite finds a deleted row's children through an index
 * on the child's column, and without one reads the child table whole, once per deleted parent row — a cost that
 * grows with every account, so no test database of a few people shows it. Every foreign key of the schema the
 * migrations build must be the leading column of an index or of the table's key.
 */
const SMALL_ON_PURPOSE: Record<string, string> = {
  // Challenges live five minutes and the every-minute cron sweeps them (cron/sweep-expired.ts): the table stays small.
  'webauthn_challenges.user_id': 'swept within minutes',
};

interface ForeignKey {
  table: string;
  from: string;
  to: string;
}

async function foreignKeys(): Promise<ForeignKey[]> {
  const { results } = await env.DB.prepare(
    `SELECT m.name AS "table", f."from" AS "from", f."table" AS "to"
     FROM sqlite_master m, pragma_foreign_key_list(m.name) f
     WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' AND m.name != 'd1_migrations'`,
  ).all<ForeignKey>();
  return results;
}

/** The first column of every index of `table` and of its key (a table's own key is an index of a WITHOUT ROWID table, and its rowid alias otherwise). */
async function leadingColumns(table: string): Promise<Set<string>> {
  const { results } = await env.DB.prepare(
    `SELECT i.name AS column FROM pragma_index_list(?1) l, pragma_index_info(l.name) i WHERE i.seqno = 0 AND l.partial = 0
     UNION SELECT name AS column FROM pragma_table_info(?1) WHERE pk = 1`,
  )
    .bind(table)
    .all<{ column: string }>();
  return new Set(results.map((r) => r.column));
}

describe('the schema, for deletions', () => {
  it('indexes every foreign key’s column, so deleting a row finds its children without reading whole tables', async () => {
    const keys = await foreignKeys();
    expect(keys.length).toBeGreaterThan(50);
    const unindexed: string[] = [];
    for (const key of keys) if (!(await leadingColumns(key.table)).has(key.from)) unindexed.push(`${key.table}.${key.from}`);
    expect(unindexed.sort()).toEqual(Object.keys(SMALL_ON_PURPOSE).sort());
  });

  it('finds a deleted import’s chat lines, a delivery’s attempts and a guardianship’s notices through an index', async () => {
    for (const [table, column] of [
      ['persona_chat_lines', 'import_id'],
      ['webhook_attempts', 'delivery_id'],
      ['guardian_notices', 'guardian_id'],
      ['guardian_holds', 'guardian_id'],
      ['death_report_votes', 'guardian_id'],
      ['persona_settings', 'keeper_user_id'],
    ]) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN SELECT 1 FROM ${table} WHERE ${column} = ?1`).bind('x').all<{ detail: string }>();
      // SEARCH: a seek into the index by the column; SCAN would read it (or the table) whole.
      expect(results.map((r) => r.detail).join('; '), `${table}.${column}`).toMatch(
        new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX \\w+ \\(${column}=\\?\\)$`),
      );
    }
  });
});
