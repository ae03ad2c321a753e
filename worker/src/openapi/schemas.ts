import { z } from 'zod';

/*
 * Response schemas for answers that the contracts describe only as TypeScript interfaces. Each one is
 * written through `mirrors<Interface>()`, so `tsc` fails as soon as the schema and the interface the
 * service returns drift apart (in either direction). Request bodies never live here: they are the
 * contracts' own zod schemas.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** `mirrors<T>()(schema)` compiles only when the schema's output type is exactly T. */
export function mirrors<T>() {
  return <S extends z.ZodType>(schema: S, ..._sameAsInterface: Same<z.output<S>, T> extends true ? [] : [never]): S => schema;
}

export const ZOk = z.object({ ok: z.literal(true) });

/** Every error: `{detail}`, a sentence or FastAPI-style field issues (docs/decisions/api-errors.md). */
export const ERROR_SCHEMA = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: {
      description: 'What went wrong: a sentence, or (422) one entry per invalid field.',
      oneOf: [
        { type: 'string' },
        {
          type: 'array',
          items: {
            type: 'object',
            required: ['loc', 'msg', 'type'],
            properties: {
              loc: { type: 'array', items: { type: ['string', 'integer'] }, description: 'Where: ["body", "email"], ["query", "limit"]…' },
              msg: { type: 'string' },
              type: { type: 'string', description: 'A machine-readable kind: missing, invalid_type, too_small…' },
            },
          },
        },
      ],
    },
    request_id: { type: 'string', description: 'Only on 500: the id under which the error was logged.' },
  },
} as const;
