import type { Context } from 'hono';
import type { z } from 'zod';
import { readJsonBody } from './json-body';
import { parseOrThrow } from './validation';

/** REST helper: the request's JSON body validated by the operation's one contract. */
export async function jsonInput<S extends z.ZodType>(c: Context, schema: S, maxBytes?: number): Promise<z.output<S>> {
  return parseOrThrow(schema, await readJsonBody(c.req.raw, maxBytes), 'body');
}
