/**
 * A visitor's search words as an FTS5 query that can never be a syntax error: the text is cut into
 * words (letters and digits of any script), each quoted as a string — so `"`, `*`, `(`, `AND`, `NEAR`,
 * `-` and `:` are plain text — and all must match; the last word matches as a prefix, so results come
 * while typing; `column` limits them to one column of the index. null when nothing searchable is left
 * (no filter).
 */
export function ftsQuery(search: string | undefined | null, column?: string): string | null {
  const words =
    (search ?? '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 12) ?? [];
  if (!words.length) return null;
  const phrase = words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(' ');
  // A column filter (`name : (…)`) when asked: `column` is one of the caller's fixed names, never input.
  return column ? `${column} : (${phrase})` : phrase;
}

/** The text indexed for a capsule: its text items, one per line. */
export const ftsBody = (items: readonly { type: string; data: string }[]) =>
  items
    .filter((i) => i.type === 'text')
    .map((i) => i.data)
    .join('\n');
