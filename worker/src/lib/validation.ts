import type { z } from 'zod';
import { AppError, type FieldIssue } from './errors';

/** zod issues → `[{loc, msg, type}]` with `loc` rooted at where the value came from ("body", "query"). */
export function toFieldIssues(error: z.ZodError, root: string): FieldIssue[] {
  return error.issues.map((issue) => ({
    loc: [root, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
  }));
}

/** Parses `value` with `schema`, or throws a 422 AppError listing every field problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root = 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('UNPROCESSABLE', toFieldIssues(result.error, root));
  return result.data;
}
