import { z } from 'zod';

/*
 * The local outbox (docs/decisions/local-outbox.md): outside production every delivery is stored
 * instead of sent, and each account reads the ones addressed to it.
 */

/** GET /api/outbox?limit= (local only): how many of the newest deliveries to show. */
export const OUTBOX_PAGE_MAX = 500;
export const ZOutboxQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a whole number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(OUTBOX_PAGE_MAX, { message: `limit must be at most ${OUTBOX_PAGE_MAX}` })
    .optional(),
});

/** One stored delivery, as the real channel would have sent it. */
export const ZOutboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms', 'call', 'push']),
  address: z.string(),
  recipient_user_id: z.string().nullable().describe('The account the delivery was for; null when none is known (operator view only)'),
  subject: z.string(),
  text: z.string(),
  link: z.string().nullable(),
  idempotency_key: z.string(),
  created_at: z.string(),
});
export type OutboxMessage = z.infer<typeof ZOutboxMessage>;

/** GET /api/outbox and /api/outbox/all: newest first. */
export const ZOutboxPage = z.object({ enabled: z.literal(true), messages: z.array(ZOutboxMessage) });
export type OutboxPage = z.infer<typeof ZOutboxPage>;
