import { z } from 'zod';
import { ZScheduledDeletion } from '../contracts/legal';
import type { listOutbox } from '../channels/outbox';
import type { listScheduledDeletions } from '../domains/legal/list-deletions';

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

export const ZScheduledDeletions = mirrors<Awaited<ReturnType<typeof listScheduledDeletions>>>()(z.object({ items: z.array(ZScheduledDeletion) }));

export const ZOutboxMessage = mirrors<Awaited<ReturnType<typeof listOutbox>>[number]>()(
  z.object({
    id: z.string(),
    channel: z.enum(['email', 'sms', 'call', 'push']),
    address: z.string(),
    recipient_user_id: z.string().nullable().describe('The account the delivery was for; null when none is known (operator view only)'),
    subject: z.string(),
    text: z.string(),
    link: z.string().nullable(),
    idempotency_key: z.string(),
    created_at: z.string(),
  }),
);

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
