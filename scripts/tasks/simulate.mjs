// `npm run simulate`: the system simulation at full size (worker/test/simulation/, docs/decisions/simulation.md):
// the real Worker inside workerd under a fake clock, people drawn from a seed, faults injected, judged by the
// oracle; prints the summary and the cost per 1,000 users. SIM_PEOPLE, SIM_DAYS, SIM_SEED override the size
// and the seed. Exits non-zero on any false, missed (beyond the bound), late or duplicated release.
import { must, step } from '../lib/proc.mjs';

const people = process.env.SIM_PEOPLE ?? '100';
const days = process.env.SIM_DAYS ?? '100';
const seed = process.env.SIM_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
step(`Simulating ${people} people × ${days} days, seed ${seed} (replay: SIM_SEED=${seed} SIM_PEOPLE=${people} SIM_DAYS=${days} npm run simulate)`);
const started = Date.now();
await must('pnpm', ['--filter', '@afterword/worker', 'exec', 'vitest', 'run', '--config', 'vitest.simulate.config.mts'], {
  env: { ...process.env, VITE_SIM_PEOPLE: people, VITE_SIM_DAYS: days, VITE_SIM_SEEDS: seed, VITE_SIM_PROGRESS: '1' },
});
console.log(`simulate: ${Math.round((Date.now() - started) / 1000)} s`);
