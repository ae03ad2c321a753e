#!/usr/bin/env node
// Entry of `npm start`, `npm test`, `npm run bench`: sets up the toolchain on whatever Node runs
// this, then hands over to scripts/tasks/<task>.mjs under the project's Node >= 22.13.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root, setup } from './toolchain.mjs';

const [task, ...args] = process.argv.slice(2);
const { nodeBin, env } = setup();
const child = spawn(nodeBin, [join(root, 'scripts', 'tasks', `${task}.mjs`), ...args], { stdio: 'inherit', env, cwd: root });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
