import { z } from 'zod';

/** GET /api/legal/deletions items (SPEC section 3: type, id, deletion_date). */
export const ZScheduledDeletion = z.object({
  type: z.string(),
  id: z.string(),
  deletion_date: z.string(),
  status: z.enum(['armed', 'scheduled']),
  reason: z.string(),
});
export type TScheduledDeletion = z.infer<typeof ZScheduledDeletion>;

/** GET /api/legal/deletions. */
export const ZScheduledDeletions = z.object({ items: z.array(ZScheduledDeletion) });
export type TScheduledDeletions = z.infer<typeof ZScheduledDeletions>;
