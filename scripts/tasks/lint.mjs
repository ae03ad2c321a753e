// `npm run lint`: Biome's formatter and linter over the whole repository, read-only (`biome ci`), then
// dependency-cruiser's import rules (.dependency-cruiser.cjs): a file
// that is not formatted, a lint error or a lint warning fails it. `npm run format` fixes what it can.
import { DEPCRUISE_ARGS, DEPCRUISE_DOMAIN_ARGS, must, step } from '../lib/proc.mjs';

step('Checking formatting and lint rules (Biome)');
await must('biome', ['ci', '--error-on-warnings', '.', ...process.argv.slice(2)]);
step('Checking which way imports point (dependency-cruiser, .dependency-cruiser.cjs)');
await must('depcruise', [...DEPCRUISE_ARGS]);
step('Checking that no two domains depend on each other (dependency-cruiser, .dependency-cruiser.domains.cjs)');
await must('depcruise', [...DEPCRUISE_DOMAIN_ARGS]);
