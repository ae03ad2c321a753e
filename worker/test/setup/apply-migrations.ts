import { applyD1Migrations, env } from 'cloudflare:test';

// The migrations from db/migrations, applied before a file's tests: to a fresh D1 in a file's own workerd,
// and once per workerd in the shared project (applyD1Migrations skips what is applied; vitest.config.mts).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
