// A plain `wrangler deploy` is a production Worker, and every local way of running it asks for development
// (worker/src/env-check.ts, docs/decisions/deployment-modes.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEVELOPMENT_VARS, root } from './proc.mjs';

const read = (path) => readFileSync(join(root, path), 'utf8');
const vars = (toml) => toml.slice(toml.indexOf('[vars]'));

test('wrangler.toml ships production, with no development switch among its vars', () => {
  const toml = vars(read('wrangler.toml'));
  assert.match(toml, /^APP_ENV = "production"$/m);
  assert.doesNotMatch(toml, /^WEBHOOK_ALLOW_PRIVATE_URLS\s*=/m);
  assert.doesNotMatch(toml, /^OUTBOX_OPERATOR_VIEW\s*=/m);
});

test('npm start, the test Worker and the Worker tests ask for development', () => {
  assert.deepEqual(Object.fromEntries(DEVELOPMENT_VARS), { APP_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  assert.match(read('scripts/tasks/start.mjs'), /DEVELOPMENT_VARS/);
  assert.match(read('tests/support/worker-server.mjs'), /APP_ENV: 'development'/);
  assert.match(read('worker/vitest.config.mts'), /APP_ENV: 'development'/);
});
