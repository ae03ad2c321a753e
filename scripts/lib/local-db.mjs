// Local D1 (miniflare) setup: migrations through wrangler, and the demo account.
import { randomBytes, scryptSync } from 'node:crypto';
import { must, step } from './proc.mjs';

export const DEMO = { email: 'demo@example.com', password: 'afterword-demo-2026' };

export async function applyLocalMigrations(extraArgs = []) {
  step('Applying D1 migrations to the local database');
  await must('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...extraArgs], {
    env: { ...process.env, CI: 'true' },
  });
}

const b64url = (buf) => buf.toString('base64url');

/**
 * Seeds the local-only demo account. The hash uses the Worker's own format and parameters
 * (worker/src/lib/kdf.ts: scrypt N=2^14, r=8, p=5), so the Worker verifies it as any other.
 */
export async function seedDemoAccount(extraArgs = []) {
  const salt = randomBytes(16);
  const key = scryptSync(DEMO.password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 5, maxmem: 64 * 1024 * 1024 });
  const hash = ['scrypt', 16384, 8, 5, b64url(salt), b64url(key)].join('$');
  const now = Date.now();
  const sql =
    `INSERT OR IGNORE INTO users (id, email, password_hash, data_policy_region, legal_jurisdiction, plan, created_at, updated_at) ` +
    `VALUES ('00000000-0000-4000-8000-00000000de70', '${DEMO.email}', '${hash}', 'INTL-General', NULL, 'free', ${now}, ${now});`;
  step(`Seeding the demo account (${DEMO.email})`);
  await must('wrangler', ['d1', 'execute', 'DB', '--local', '--command', sql, ...extraArgs], { env: { ...process.env, CI: 'true' } });
}
