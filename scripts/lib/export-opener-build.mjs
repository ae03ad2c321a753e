// Rebuilds the export's offline opener page (worker/src/domains/legal/export/opener-page.data.ts, committed
// so a bare `wrangler deploy` and the Worker tests have it) from web/src/export-opener/ and web/src/crypto/,
// so what the Worker puts into an archive is always the crypto the web app runs. Under a second, and
// deterministic: an unchanged source leaves the file byte for byte as committed.
import { must, step } from './proc.mjs';

export async function buildExportOpener({ env = process.env } = {}) {
  step('Building the export’s offline opener page (web/vite.export-opener.config.ts)');
  await must('pnpm', ['--filter', '@afterword/web', 'run', 'build:export-opener'], { env });
}
