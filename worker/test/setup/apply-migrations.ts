import { env } from 'cloudflare:test';

/**
 * Each test file gets its own fresh D1. The migrations from db/migrations are applied as one batch (one
 * transaction) rather than one batch per migration, and recorded in `d1_migrations` the way wrangler and
 * `applyD1Migrations` record them, so the schema is exactly what `wrangler d1 migrations apply` makes. The
 * statements are the same either way; one transaction saves a commit per migration on every test file.
 */
const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

const record = env.DB.prepare('INSERT INTO d1_migrations (name) VALUES (?)');
await env.DB.batch([
  env.DB.prepare(MIGRATIONS_TABLE),
  ...env.TEST_MIGRATIONS.flatMap((migration) => [...migration.queries.map((query) => env.DB.prepare(query)), record.bind(migration.name)]),
]);
