import { describe, expect, it } from 'vitest';
import { engineRecordOf } from './simulation/diagnostics';
import { report } from './simulation/report';
import { runSimulation } from './simulation/run-simulation';

/**
 * The whole switch over many people and days with things going wrong (worker/test/simulation/), judged
 * from outside by the oracle (simulation/oracle.ts). A small size here, every `npm test`; the full size
 * is `npm run simulate`. Replay a seed: VITE_SIM_SEEDS=<seed> pnpm exec vitest run test/system-simulation.test.ts
 */
const penv: Record<string, string | undefined> = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const SEEDS = (penv.VITE_SIM_SEEDS ?? '1,2,3').split(',').map(Number);
const PEOPLE = Number(penv.VITE_SIM_PEOPLE ?? 30);
const DAYS = Number(penv.VITE_SIM_DAYS ?? 25);
/** The run silences the engine's own logging; progress goes out through the console as it was. */
const say = console.info.bind(console);

describe('the whole switch, simulated', () => {
  for (const seed of SEEDS) {
    it(`releases when, and only when, the owners' conditions say so (seed ${seed}, ${PEOPLE} people × ${DAYS} days)`, async () => {
      const run = await runSimulation({ seed, people: PEOPLE, days: DAYS, ...(penv.VITE_SIM_PROGRESS ? { progress: say } : {}) });
      const { failures, text, summary, verdicts } = report(run);
      console.info(text);
      if (failures.length) {
        const senders = [...new Set(verdicts.filter((v) => ['false release', 'missed', 'late', 'duplicated'].includes(v.kind)).map((v) => v.message.sender))];
        for (const s of senders.slice(0, 5)) console.info(await engineRecordOf(run.log, s));
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
      // A simulation that released nothing proves nothing.
      expect(summary.done).toBeGreaterThan(0);
    }, 600_000);
  }
});
