// `npm run typecheck`: TypeScript strict over every package.
import { must, step } from '../lib/proc.mjs';

step('Typechecking worker, db and web');
await must('pnpm', ['-r', '--workspace-concurrency=1', 'run', 'typecheck']);
