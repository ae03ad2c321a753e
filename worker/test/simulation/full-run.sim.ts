import { expect, it } from 'vitest';
import { engineRecordOf, unwarnedPeople } from './diagnostics';
import { report } from './report';
import { runSimulation } from './run-simulation';

/**
 * `npm run simulate`: one run at full size (scripts/tasks/simulate.mjs passes SIM_PEOPLE, SIM_DAYS and
 * SIM_SEED as VITE_SIM_*, the only variables vite hands to the test runtime).
 */
const penv: Record<string, string | undefined> = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const say = console.info.bind(console);

it('releases when, and only when, the owners’ conditions say so, at full size', async () => {
  const seed = Number(penv.VITE_SIM_SEEDS ?? 1);
  const run = await runSimulation({ seed, people: Number(penv.VITE_SIM_PEOPLE ?? 100), days: Number(penv.VITE_SIM_DAYS ?? 100), progress: say });
  const { failures, text, verdicts } = report(run);
  say(text);
  const failing = [...new Set(verdicts.filter((v) => ['false release', 'missed', 'late', 'duplicated'].includes(v.kind)).map((v) => v.message.sender))];
  for (const s of [...failing, ...unwarnedPeople(failures)].slice(0, 5)) say(await engineRecordOf(run.log, s, run.engineBeforeErasureOf(s)));
  expect(failures, failures.join('\n\n')).toEqual([]);
});
