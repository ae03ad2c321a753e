import { z } from 'zod';

/**
 * A create call's optional `idempotency_key`, chosen by the caller once per thing it means to create (the web app
 * sends a UUID): the same call sent again with it — its first answer lost — answers with what the first try wrote
 * instead of writing a second; with another input, 409 (docs/decisions/create-retries.md).
 */
export const ZIdempotencyKey = z
  .string({ message: 'idempotency_key must be a string' })
  .trim()
  .min(8, { message: 'idempotency_key must be 8 to 100 characters' })
  .max(100, { message: 'idempotency_key must be 8 to 100 characters' })
  .optional()
  .nullable();
