// `npm run format`: formats every file Biome covers and applies its safe lint fixes in place
// (`biome check --write`). What is left needs a hand: `npm run lint` lists it.
import { must, step } from '../lib/proc.mjs';

step('Formatting and applying safe fixes (Biome)');
await must('biome', ['check', '--write', '.', ...process.argv.slice(2)]);
