// Builds web/dist only when a source file is newer than the last build (a second `npm start` is fast),
// or when the build-time flags (VITE_*) differ from the last build's: `npm test` builds with Google
// sign-in on, and a later `npm start` without the flag must not serve that build.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { must, root, step } from './proc.mjs';

const stampFile = join(root, 'node_modules', '.cache', 'web-build-flags.json');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** The VITE_* variables a build bakes in, as one comparable string. */
function viteFlags(env) {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(env)
        .filter(([k]) => k.startsWith('VITE_'))
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  );
}

function lastBuildFlags() {
  try {
    return readFileSync(stampFile, 'utf8');
  } catch {
    return null;
  }
}

export async function buildWebIfStale({ force = false, env = process.env } = {}) {
  const index = join(root, 'web', 'dist', 'index.html');
  const sources = Math.max(newestMtime(join(root, 'web')), newestMtime(join(root, 'worker', 'src', 'contracts')));
  const flags = viteFlags(env);
  if (!force && existsSync(index) && statSync(index).mtimeMs > sources && lastBuildFlags() === flags) {
    step('Web app is up to date (web/dist)');
    return;
  }
  step(`Building the web app (vite → web/dist)${flags === '{}' ? '' : ` with ${flags}`}`);
  await must('pnpm', ['--filter', '@afterword/web', 'build'], { env });
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, flags);
}
