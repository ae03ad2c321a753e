// `npm run lint`: Biome's formatter and linter over the whole repository, read-only (`biome ci`): a file
// that is not formatted, a lint error or a lint warning fails it. `npm run format` fixes what it can.
import { must, step } from '../lib/proc.mjs';

step('Checking formatting and lint rules (Biome)');
await must('biome', ['ci', '--error-on-warnings', '.', ...process.argv.slice(2)]);
