import { defineOperation } from '../../../api/operation';
import { exportArchive } from './export-archive';

/** GET /api/legal/export (docs/api.md): one ZIP archive of the caller's data and files. */
export const exportOperations = [
  defineOperation({
    method: 'get',
    path: '/api/legal/export',
    trpc: false,
    access: { kind: 'session' },
    input: {},
    docs: {
      operationId: 'exportMyData',
      summary: 'Everything held about you, as one ZIP archive',
      description:
        'Streamed: `data/*.json` (every row keyed to you, one file per kind; no secrets), `files/` (your recordings, attachments and vault files and those released to you, as stored: end-to-end encrypted ones stay encrypted), `README.txt`, pages to read in a browser (`index.html`, `messages.html`, `canaries.html`, `vault.html`, `people.html`), `open-encrypted-files.html` (opens the end-to-end encrypted messages and files offline, with your recovery key or password), and `manifest.json` last (each file’s size and SHA-256).',
      tags: ['Legal'],
      contentType: 'application/zip',
      responses: { 200: { description: 'The archive' } },
    },
    run: ({ services, principal }) => exportArchive(services, principal.user.id),
  }),
] as const;
