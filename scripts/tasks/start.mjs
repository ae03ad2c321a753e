// `npm start`: build the export's opener page and the web app if needed, prepare the local D1, seed the demo account, serve
// everything (API + app) with `wrangler dev` on 127.0.0.1:$PORT (default 8787).
import { spawn } from 'node:child_process';
import { buildExportOpener } from '../lib/export-opener-build.mjs';
import { buildWebIfStale } from '../lib/web-build.mjs';
import { DEMO, applyLocalMigrations, seedDemoAccount } from '../lib/local-db.mjs';
import { DEVELOPMENT_VARS, root, step } from '../lib/proc.mjs';

const port = process.env.PORT || '8787';
await buildExportOpener();
await buildWebIfStale();
await applyLocalMigrations();
await seedDemoAccount();

step(`Starting wrangler dev on http://127.0.0.1:${port}  (demo login: ${DEMO.email} / ${DEMO.password}; passkeys work at http://localhost:${port})`);
// wrangler.toml ships production; a local run asks for development (worker/src/env-check.ts). Wrangler's
// local observability collector stays off: its trace store keeps full request URLs (a file key in
// `?key=`) on disk, and it costs the Worker's thread (docs/decisions/bench-runtime.md).
const child = spawn(
  'wrangler',
  [
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    port,
    '--show-interactive-dev-session=false',
    ...DEVELOPMENT_VARS.flatMap(([k, v]) => ['--var', `${k}:${v}`]),
    '--var',
    `PUBLIC_ORIGIN:http://127.0.0.1:${port}`,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, X_LOCAL_OBSERVABILITY: 'false' } },
);
const stop = (sig) => child.kill(sig);
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
child.on('exit', (code) => process.exit(code ?? 0));
