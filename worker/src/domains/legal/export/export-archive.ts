import { downloadZip } from 'client-zip';
import type { ServiceContext } from '../../../env';
import { log } from '../../../lib/logger';
import { EXPORTS, type TableExport } from './export-plan';
import { hashedChunks, type ManifestEntry } from './hashing';
import { PAGE_END, pageStart } from './html';
import { OPENER_PAGE_HTML } from './opener-page.data';
import { indexPage } from './page-index';
import type { PageSource } from './page-source';
import { INDEX_PAGE, OPENER_PAGE, readablePages } from './readable-pages';
import { type ArchiveTitle, exportTitle, readmeText } from './readme';
import { tableJson } from './table-rows';
import { type UserFile, userFiles } from './user-files';

/** Which of the user's records and files an archive takes (the full export takes all of them). */
export interface ArchiveSelection {
  plans: readonly TableExport[];
  keepFile: (file: UserFile) => boolean;
  heading: (generatedAt: string) => ArchiveTitle;
}

const EVERYTHING: ArchiveSelection = { plans: EXPORTS, keepFile: () => true, heading: exportTitle };

/**
 * GET /api/legal/export: one ZIP archive of everything held about the user (docs/decisions/data-export.md), streamed
 * (client-zip: entries are produced one after another and every R2 body and table page flows straight
 * through, so memory stays flat whatever the account's size). manifest.json comes last: it holds each
 * earlier file's size and SHA-256, hashed as the bytes went by.
 */
export async function exportArchive(ctx: ServiceContext, userId: string): Promise<Response> {
  const stamp = ctx.now().toISOString().slice(0, 10);
  return new Response(await archiveStream(ctx, userId), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="afterword-export-${stamp}.zip"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

/** The ZIP stream of the user's records and files that `selection` takes (also a copy left to an heir: domains/legacy/). */
export async function archiveStream(ctx: ServiceContext, userId: string, selection: ArchiveSelection = EVERYTHING): Promise<ReadableStream<Uint8Array>> {
  const now = ctx.now();
  const generatedAt = now.toISOString();
  const heading = selection.heading(generatedAt);
  // The feed's lines other domains keep outside D1 (the canaries' check-ins) are written there first, so the
  // archive's activity is the feed's. An object that cannot answer leaves its newest lines out, not the archive.
  if (selection.plans.some((p) => p.table === 'activity')) {
    for (const lines of ctx.activityLines)
      await lines.keep(ctx, userId).catch((err) => log.warn('could not gather feed lines for an archive; going on without them', { error: String(err) }));
  }
  const files = (await userFiles(ctx.env.DB, userId)).filter(selection.keepFile);
  const entries: ManifestEntry[] = [];
  const held = selection.plans.map((p) => p.file);
  const pages = readablePages(held);
  // The opener needs the sealed private key: an archive without data/encryption_keys.json has nothing it can open.
  const opener = held.includes('encryption_keys');
  const paths = new Map<string, string>();
  const source: PageSource = {
    db: ctx.env.DB,
    userId,
    plans: selection.plans,
    paths,
    archiveTitle: heading.title,
    nav: [INDEX_PAGE, ...pages, ...(opener ? [OPENER_PAGE] : [])],
  };
  async function* html(title: string, body: AsyncIterable<string>) {
    yield pageStart(title, heading.title, source.nav);
    yield* body;
    yield PAGE_END;
  }

  async function* archive() {
    const readme = 'README.txt';
    yield { name: readme, lastModified: now, input: hashedChunks(readme, [readmeText(generatedAt, heading, opener)], entries) };
    for (const plan of selection.plans) {
      const name = `data/${plan.file}.json`;
      yield { name, lastModified: now, input: hashedChunks(name, tableJson(ctx.env.DB, plan, userId), entries) };
    }
    for (const file of files) {
      const object = await ctx.env.BLOBS.get(file.key);
      // A row whose bytes are gone (an interrupted erasure) is said, not skipped in silence.
      if (!object) {
        const name = `${file.path}.missing.txt`;
        paths.set(file.key, name);
        yield { name, lastModified: now, input: hashedChunks(name, ['This file is listed in your records but its bytes were not found.\n'], entries) };
        continue;
      }
      paths.set(file.key, file.path);
      yield { name: file.path, lastModified: object.uploaded, input: hashedChunks(file.path, object.body, entries) };
    }
    // The pages a person reads (docs/decisions/data-export.md "Readable pages"), then the index, last of them: it lists every file before it.
    for (const page of pages) yield { name: page.file, lastModified: now, input: hashedChunks(page.file, html(page.title, page.body(source)), entries) };
    if (opener) yield { name: OPENER_PAGE.file, lastModified: now, input: hashedChunks(OPENER_PAGE.file, [OPENER_PAGE_HTML], entries) };
    const index = INDEX_PAGE.file;
    yield { name: index, lastModified: now, input: hashedChunks(index, html(heading.title, indexPage(source, heading, [...entries], opener)), entries) };
    yield {
      name: 'manifest.json',
      lastModified: now,
      input: `${JSON.stringify({ format: 'afterword-export/1', user_id: userId, generated_at: generatedAt, files: entries }, null, 2)}\n`,
    };
  }

  return downloadZip(archive()).body as ReadableStream<Uint8Array>;
}
