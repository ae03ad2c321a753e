/**
 * A visitor's search words as an FTS5 query that can never be a syntax error: the text is cut into
 * words (letters and digits of any script), each quoted as a string — so `"`, `*`, `(`, `AND`, `NEAR`,
 * `-` and `:` are plain text — and all must match; the last word matches as a prefix, so results come
 * while typing. null when nothing searchable is left (no filter).
 */
export function ftsQuery(search: string | undefined | null): string | null {
  const words =
    (search ?? '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 12) ?? [];
  if (!words.length) return null;
  return words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(' ');
}

/** The text indexed for a capsule: its text items, one per line. */
export const ftsBody = (items: readonly { type: string; data: string }[]) =>
  items
    .filter((i) => i.type === 'text')
    .map((i) => i.data)
    .join('\n');
