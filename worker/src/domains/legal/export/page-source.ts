import type { TableExport } from './export-plan';
import type { PageLink } from './html';
import { tableRows } from './table-rows';

/**
 * What a readable page of the archive reads: the same plans (and so the same rows, without the same
 * secrets) as the archive's data/*.json — a copy left to an heir shows only the parts it holds.
 */
export interface PageSource {
  db: D1Database;
  userId: string;
  plans: readonly TableExport[];
  /** Where each R2 object is in the archive, by its key: records link to their files. */
  paths: ReadonlyMap<string, string>;
  archiveTitle: string;
  nav: readonly PageLink[];
}

export const hasPlan = (s: PageSource, file: string) => s.plans.some((p) => p.file === file);

/** How a page points to what is sealed: to the opener, or (a copy without the sealed private key) says it cannot open here. */
export const openerNote = (s: PageSource) =>
  s.nav.some((p) => p.file === 'open-encrypted-files.html')
    ? '<a href="open-encrypted-files.html">open-encrypted-files.html</a> opens them with your recovery key or password'
    : 'they open only with the keys of whoever sealed them, which this archive does not hold';

/** The rows of data/<file>.json, streamed; none when this archive does not hold that file. */
export async function* rowsOf(s: PageSource, file: string): AsyncGenerator<Record<string, unknown>> {
  for (const plan of s.plans.filter((p) => p.file === file)) yield* tableRows(s.db, plan, s.userId);
}

/** Small record kinds (attachments, histories, people) grouped by a column, to show beside what they belong to. */
export async function groupRows(s: PageSource, file: string, column: string): Promise<Map<string, Record<string, unknown>[]>> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for await (const row of rowsOf(s, file)) {
    const key = String(row[column] ?? '');
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return groups;
}

/**
 * How the pages name an account: "you", the email of a contact or guardian the archive holds, or else its
 * id (the archive holds no one else's profile).
 */
export async function peopleNames(s: PageSource): Promise<(id: unknown) => string> {
  const names = new Map<string, string>();
  for (const file of ['contacts', 'guardians']) {
    for await (const row of rowsOf(s, file)) {
      const other = file === 'contacts' ? row.contact_user_id : row.guardian_user_id;
      if (row.owner_id === s.userId && typeof other === 'string') names.set(other, String(row.email));
    }
  }
  return (id) => (id === s.userId ? 'you' : typeof id === 'string' ? (names.get(id) ?? `account ${id}`) : 'nobody (their account was deleted)');
}
