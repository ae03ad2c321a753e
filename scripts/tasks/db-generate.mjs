// `npm run db:generate -- --name <what>`: SQL migrations from the drizzle schema (applied by wrangler).
import { must } from '../lib/proc.mjs';

await must('pnpm', ['--filter', '@afterword/db', 'exec', 'drizzle-kit', 'generate', '--config', 'drizzle.config.ts', ...process.argv.slice(2)]);
