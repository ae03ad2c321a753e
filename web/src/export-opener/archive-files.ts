/*
 * The files a person picked on the offline opener page (web/src/export-opener/page.html), keyed by their
 * place in the archive ("data/…", "files/…"). A folder pick gives each file its path under the chosen
 * folder; a plain multi-file pick gives names only, which is enough for the records (data/<name>.json)
 * and for attachments and vault files (their names start with their record's id), not for recordings
 * (every one is called recording.enc).
 */

export interface PickedFile {
  /** The path under the chosen folder ("afterword-export-…/data/account.json"), or "" for a plain pick. */
  relativePath: string;
  name: string;
  blob: Blob;
}

/** The archive's files by path: "data/account.json", "files/vault/<id>-deed.pdf.enc", or a bare name. */
export type ArchiveFiles = Map<string, Blob>;

const ROOTS = new Set(['data', 'files']);

/** Where a picked file sits in the archive: from its first "data" or "files" folder on; a bare name when picked alone. */
export function archivePath(file: Pick<PickedFile, 'relativePath' | 'name'>): string {
  const parts = file.relativePath.split('/').filter(Boolean);
  const start = parts.findIndex((p) => ROOTS.has(p));
  if (start >= 0 && start < parts.length - 1) return parts.slice(start).join('/');
  // Records picked one by one: their names are the archive's own (data/<name>.json).
  return file.name.endsWith('.json') && !file.name.endsWith('.enc') ? `data/${file.name}` : file.name;
}

export function archiveFiles(picked: readonly PickedFile[]): ArchiveFiles {
  return new Map(picked.map((f) => [archivePath(f), f.blob]));
}

/** The records of one data/<name>.json file, or [] when it was not picked (a copy may not hold it). */
export async function records(files: ArchiveFiles, name: string): Promise<Record<string, unknown>[]> {
  const blob = files.get(`data/${name}.json`);
  if (!blob) return [];
  const rows: unknown = JSON.parse(await blob.text());
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
}
