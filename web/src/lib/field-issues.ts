/** One validation problem from the server, with the root of its `loc` ('input', 'body') dropped. */
export interface FieldIssue {
  path: (string | number)[];
  msg: string;
}

const ROOTS = new Set(['input', 'body', 'query', 'path']);

/**
 * The field issues of a 422 (`detail: [{loc, msg, type}]`), or null when the error carries a plain
 * detail (or none). Callers place each message under its field and show the rest above the form.
 */
export function readFieldIssues(error: unknown): FieldIssue[] | null {
  const detail = (error as { data?: { detail?: unknown } } | null)?.data?.detail;
  if (!Array.isArray(detail)) return null;
  const issues: FieldIssue[] = [];
  for (const raw of detail) {
    const { loc, msg } = (raw ?? {}) as { loc?: unknown; msg?: unknown };
    if (typeof msg !== 'string' || !msg) continue;
    const path = Array.isArray(loc) ? loc.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number') : [];
    if (typeof path[0] === 'string' && ROOTS.has(path[0])) path.shift();
    issues.push({ path, msg });
  }
  return issues.length ? issues : null;
}
