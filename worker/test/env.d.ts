// The test-only binding added in vitest.config.mts.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    /** An empty D1 for migration tests (vitest.config.mts). */
    MIGRATION_TEST_DB: D1Database;
  }
}
