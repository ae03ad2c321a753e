import type { z } from 'zod';

export type FieldErrors = Partial<Record<string, string>>;

/** First message per top-level field, from a failed safeParse of a contract schema. */
export function toFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}
