import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Test files that get a workerd (and a D1) of their own. They run what the cron runs — the scans over every
 * canary, message, guardian ladder and account in D1 — often with a clock months ahead, or count rows
 * across accounts, or apply migrations to an empty database: in a shared workerd they would act on (and
 * wait for) every other file's data. Every other file shares (the "shared" project below).
 */
const OWN_WORKERD = [
  'test/account-deletion.test.ts',
  'test/billing-portal.test.ts',
  'test/canary-model.test.ts',
  'test/canary-projection.test.ts',
  'test/canary-reconciler.test.ts',
  // The moderators' review queue lists every account's hidden content.
  'test/community-moderation.test.ts',
  // The cron's resend of unsent contact invitations reads every account's.
  'test/contact-invitation-resend.test.ts',
  'test/deadman.test.ts',
  // The dead-man cron scans every switch.
  'test/deadman-deadline.test.ts',
  'test/guardian-ladder.test.ts',
  'test/inactivity-policy.test.ts',
  'test/legacy-copies.test.ts',
  'test/legal-consent.test.ts',
  'test/migration-messages-recipient-left.test.ts',
  'test/migration-clustered-hot-tables.test.ts',
  'test/passkeys.test.ts',
  'test/rehearsal-engine.test.ts',
  // The release reconciler reads every account's open messages.
  'test/release-reconciler-scale.test.ts',
  'test/sweep-expired.test.ts',
  'test/system-simulation.test.ts',
  'test/vault-api.test.ts',
  'test/webhooks-delivery.test.ts',
];

export default defineConfig(async () => {
  // wrangler.toml's [assets] directory must exist even when the web app has not been built yet.
  mkdirSync(`${root}/web/dist`, { recursive: true });
  const migrations = await readD1Migrations(`${root}/db/migrations`);
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: `${root}/wrangler.toml` },
        miniflare: {
          // Test-only binding: the setup file applies these to each workerd's D1 (test/setup/apply-migrations.ts).
          // TRUST_CF_CONNECTING_IP: tests play many clients by sending CF-Connecting-IP, which a local
          // Worker otherwise ignores (worker/src/lib/client-address.ts).
          // MODERATOR_EMAILS: the community moderators of the tests (worker/test/community-moderation.test.ts, and
          // one of its own for worker/test/operations-walk.test.ts: an email registers once per shared D1).
          // MIGRATION_TEST_DB: an empty D1 (no migrations applied) where a migration test applies them step by
          // step (worker/test/migration-messages-recipient-left.test.ts).
          d1Databases: { MIGRATION_TEST_DB: 'migration-test' },
          // APP_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: wrangler.toml ships production; the tests run the Worker in
          // development, as `npm start` does, answering their host afterword.test too (src/env-check.ts).
          bindings: {
            TEST_MIGRATIONS: migrations,
            TRUST_CF_CONNECTING_IP: 'true',
            MODERATOR_EMAILS: 'moderator@example.com, Second.Moderator@example.com, walk.moderator@example.com',
            APP_ENV: 'development',
            WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
            DEV_ALLOWED_HOSTS: 'afterword.test',
          },
        },
      }),
    ],
    test: {
      // A guard against hangs, not a speed check (speed is measured by `npm run bench`): tests that
      // hash passwords (scrypt, ~0.1 s each by design) took over vitest's 5 s default on a loaded
      // two-core machine.
      testTimeout: 30_000,
      // Two test files at a time. Vitest's default is one fewer than the cores (one, on a two-core
      // machine), but a file spends much of its time waiting on its workerd (queues, alarms, the protocol
      // peers), so a second file fills that time.
      maxWorkers: 2,
      setupFiles: ['./test/setup/apply-migrations.ts', './test/setup/fast-check.ts'],
      globalSetup: ['./test/peers/index.ts'],
      projects: [
        {
          extends: true,
          test: {
            name: 'shared',
            include: ['test/**/*.test.ts'],
            exclude: OWN_WORKERD,
            // One workerd per worker for all its files, not one per file: starting a workerd and loading
            // the Worker into it took about 6 s a file (setup 629 s of a 578-s stage; 20 s shared). The
            // files share that workerd's D1, R2, queues and objects, so a test keeps apart by its own
            // accounts (signedInUser() makes fresh ones) and never counts or lists rows it did not make.
            isolate: false,
          },
        },
        { extends: true, test: { name: 'own-workerd', include: OWN_WORKERD, isolate: true } },
      ],
    },
  };
});
