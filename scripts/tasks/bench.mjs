// `npm run bench`: builds the web app if needed, then prints the benchmark figures (nothing asserted).
import { buildWebIfStale } from '../lib/web-build.mjs';
import { must } from '../lib/proc.mjs';

await buildWebIfStale();
await must('node', ['tests/bench/index.mjs', ...process.argv.slice(2)]);
