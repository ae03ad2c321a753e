import { applyD1Migrations, env } from 'cloudflare:test';

// Each test file gets its own isolated D1; the migrations from db/migrations are applied first.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
