import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig(async () => {
  // wrangler.toml's [assets] directory must exist even when the web app has not been built yet.
  mkdirSync(`${root}/web/dist`, { recursive: true });
  const migrations = await readD1Migrations(`${root}/db/migrations`);
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}/wrangler.toml` },
        miniflare: {
          // Test-only binding: the setup file applies these to each test's fresh D1.
          // TRUST_CF_CONNECTING_IP: tests play many clients by sending CF-Connecting-IP, which a local
          // Worker otherwise ignores (worker/src/lib/client-address.ts).
          // MODERATOR_EMAILS: the community moderators of the tests (worker/test/community-moderation.test.ts).
          // MIGRATION_TEST_DB: an empty D1 (no migrations applied) where a migration test applies them step by
          // step (worker/test/migration-messages-recipient-left.test.ts).
          d1Databases: { MIGRATION_TEST_DB: 'migration-test' },
          // APP_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: wrangler.toml ships production; the tests run the Worker in
          // development, as `npm start` does, answering their host afterword.test too (src/env-check.ts).
          bindings: {
            TEST_MIGRATIONS: migrations,
            TRUST_CF_CONNECTING_IP: 'true',
            MODERATOR_EMAILS: 'moderator@example.com, Second.Moderator@example.com',
            APP_ENV: 'development',
            WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
            DEV_ALLOWED_HOSTS: 'afterword.test',
          },
        },
      }),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      // A guard against hangs, not a speed check (speed is measured by `npm run bench`): tests that
      // hash passwords (scrypt, ~0.1 s each by design) took over vitest's 5 s default on a loaded
      // two-core machine.
      testTimeout: 30_000,
      // Two test files at a time, each in its own workerd with its own storage. Vitest's default is one
      // fewer than the cores (one, on a two-core machine), but a file spends much of its time waiting on
      // its workerd (queues, alarms, the protocol peers), so a second file fills that time.
      maxWorkers: 2,
      setupFiles: ['./test/setup/apply-migrations.ts', './test/setup/fast-check.ts'],
      globalSetup: ['./test/peers/index.ts'],
    },
  };
});
