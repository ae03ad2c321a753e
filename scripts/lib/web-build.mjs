// Builds web/dist only when a source file is newer than the last build (a second `npm start` is fast).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { must, root, step } from './proc.mjs';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export async function buildWebIfStale({ force = false } = {}) {
  const index = join(root, 'web', 'dist', 'index.html');
  const sources = Math.max(newestMtime(join(root, 'web')), newestMtime(join(root, 'worker', 'src', 'contracts')));
  if (!force && existsSync(index) && statSync(index).mtimeMs > sources) {
    step('Web app is up to date (web/dist)');
    return;
  }
  step('Building the web app (vite → web/dist)');
  await must('pnpm', ['--filter', '@afterword/web', 'build']);
}
