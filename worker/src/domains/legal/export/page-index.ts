import { CONSENT_KINDS } from '@afterword/db/enums';
import type { ManifestEntry } from './hashing';
import { esc, field, fileLink, table, when } from './html';
import { hasPlan, type PageSource, rowsOf } from './page-source';
import type { ArchiveTitle } from './readme';

const REGION: Record<string, string> = { 'US-HIPAA': 'United States (HIPAA)', 'EU-GDPR': 'European Union (GDPR)', 'INTL-General': 'International' };

async function* profile(s: PageSource): AsyncGenerator<string> {
  for await (const u of rowsOf(s, 'account')) {
    yield `<h2>Your account</h2>\n<dl>${[
      field('Email', esc(u.email)),
      field('Name', esc(u.display_name || '—')),
      field('Plan', esc(u.plan)),
      field('Data region', esc(REGION[String(u.data_policy_region)] ?? u.data_policy_region)),
      field('Jurisdiction', esc(u.legal_jurisdiction ?? '—')),
      field('Time zone', esc(u.time_zone)),
      field('Phone', esc(u.phone_e164 ?? '—')),
      field('Signed up', when(u.created_at)),
      field('Last sign-in', when(u.last_sign_in_at)),
    ].join('')}</dl>\n`;
  }
}

/** Each kind of processing: allowed since sign-up unless a change says otherwise (db/schema/consents.ts). */
async function* consents(s: PageSource): AsyncGenerator<string> {
  const state = new Map<string, Record<string, unknown>>();
  for await (const c of rowsOf(s, 'consents')) state.set(String(c.kind), c);
  const rows = CONSENT_KINDS.map((kind) => {
    const c = state.get(kind);
    return [esc(kind), c ? (c.granted ? 'allowed' : 'withdrawn') : 'allowed', c ? when(c.updated_at) : 'since you signed up'];
  });
  yield `<h2>Your consents</h2>\n${table(['Kind of processing', 'Now', 'Since'], rows, '')}\n`;
  const changes: string[][] = [];
  for await (const c of rowsOf(s, 'consent_history'))
    changes.push([when(c.created_at), esc(c.kind), c.old_granted ? 'allowed' : 'withdrawn', c.new_granted ? 'allowed' : 'withdrawn']);
  yield `<h3>Changes</h3>\n${table(['When', 'Kind', 'Was', 'Became'], changes, 'You never changed a consent.')}\n`;
}

/**
 * index.html, written last: what the archive is, its pages, the opener for what is sealed, the profile and
 * consents, and every other file with its size and SHA-256 (as manifest.json has them).
 */
export async function* indexPage(s: PageSource, heading: ArchiveTitle, entries: readonly ManifestEntry[], opener: boolean): AsyncGenerator<string> {
  yield `<p>${esc(heading.lead)}</p>\n`;
  if (opener)
    yield '<p class="sealed">End-to-end encrypted messages and files (names ending in .enc) were sealed in your browser, and Afterword never had their keys. <a href="open-encrypted-files.html">Open your encrypted files</a>: a page of this archive that opens them here, offline, with your recovery key or your password.</p>\n';
  const pages = s.nav.filter((p) => p.file !== 'index.html');
  yield `<h2>Read it</h2>\n<ul>${pages.map((p) => `<li><a href="${esc(p.file)}">${esc(p.title)}</a></li>`).join('')}<li><a href="README.txt">README.txt</a>: what each part of the archive is, and how its encrypted files are sealed</li></ul>\n`;
  if (hasPlan(s, 'account')) yield* profile(s);
  if (hasPlan(s, 'consents')) yield* consents(s);
  yield '<h2>Files</h2>\n<p>Every file of the archive, with its size and SHA-256 (manifest.json lists the same), to check it is whole. The records are in <code>data/</code> as JSON.</p>\n';
  yield table(
    ['File', 'Bytes', 'SHA-256'],
    entries.map((e) => [fileLink(e.name), esc(e.size), `<code>${esc(e.sha256)}</code>`]),
    'No files.',
  );
  yield '\n';
}
