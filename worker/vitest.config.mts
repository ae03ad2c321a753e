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
          bindings: { TEST_MIGRATIONS: migrations, TRUST_CF_CONNECTING_IP: 'true' },
        },
      }),
    ],
    test: {
      include: ['test/**/*.test.ts'],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      globalSetup: ['./test/peers/index.ts'],
    },
  };
});
