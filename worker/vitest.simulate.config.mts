import { defineConfig, type UserConfig } from 'vitest/config';
import base from './vitest.config.mts';

/**
 * `npm run simulate` (scripts/tasks/simulate.mjs): the Worker test runtime of vitest.config.mts, running only
 * the full-size system simulation (test/simulation/full-run.sim.ts, which the `*.test.ts` include leaves out).
 */
export default defineConfig(async (env) => {
  const config = (await (base as unknown as (e: typeof env) => Promise<UserConfig>)(env)) as UserConfig;
  // Without the base's projects: each project has its own include, which would run the whole suite instead.
  const { projects: _projects, ...test } = config.test ?? {};
  return {
    ...config,
    test: { ...test, include: ['test/simulation/full-run.sim.ts'], testTimeout: 6 * 3_600_000 },
  };
});
