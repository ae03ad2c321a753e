import { downloadZip } from 'client-zip';
import type { ServiceContext } from '../../../env';
import { EXPORTS } from './export-plan';
import { hashedChunks, type ManifestEntry } from './hashing';
import { indexHtml, readmeText } from './readme';
import { tableJson } from './table-rows';
import { userFiles } from './user-files';

/**
 * GET /api/legal/export: one ZIP archive of everything held about the user (issue 14 section 2), streamed
 * (client-zip: entries are produced one after another and every R2 body and table page flows straight
 * through, so memory stays flat whatever the account's size). manifest.json comes last: it holds each
 * earlier file's size and SHA-256, hashed as the bytes went by.
 */
export async function exportArchive(ctx: ServiceContext, userId: string): Promise<Response> {
  const now = ctx.now();
  const generatedAt = now.toISOString();
  const files = await userFiles(ctx.env.DB, userId);
  const entries: ManifestEntry[] = [];

  async function* archive() {
    const readme = 'README.txt';
    yield { name: readme, lastModified: now, input: hashedChunks(readme, [readmeText(generatedAt)], entries) };
    for (const plan of EXPORTS) {
      const name = `data/${plan.file}.json`;
      yield { name, lastModified: now, input: hashedChunks(name, tableJson(ctx.env.DB, plan, userId), entries) };
    }
    for (const file of files) {
      const object = await ctx.env.BLOBS.get(file.key);
      // A row whose bytes are gone (an interrupted erasure) is said, not skipped in silence.
      if (!object) {
        const name = `${file.path}.missing.txt`;
        yield { name, lastModified: now, input: hashedChunks(name, ['This file is listed in your records but its bytes were not found.\n'], entries) };
        continue;
      }
      yield { name: file.path, lastModified: object.uploaded, input: hashedChunks(file.path, object.body, entries) };
    }
    const index = 'index.html';
    yield { name: index, lastModified: now, input: hashedChunks(index, [indexHtml(generatedAt, [...entries])], entries) };
    yield {
      name: 'manifest.json',
      lastModified: now,
      input: `${JSON.stringify({ format: 'afterword-export/1', user_id: userId, generated_at: generatedAt, files: entries }, null, 2)}\n`,
    };
  }

  const zip = downloadZip(archive());
  const stamp = generatedAt.slice(0, 10);
  return new Response(zip.body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="afterword-export-${stamp}.zip"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
