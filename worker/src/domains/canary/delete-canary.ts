import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import { canaryLabel } from '../../contracts/canary';
import type { ServiceContext } from '../../env';
import { runBatch } from '../../lib/db-batch';
import { activityInsert } from '../activity/record-activity';
import { stopCanaryTimer } from './canary-timer';
import { findOwnCanary } from './list-canaries';

/** Deletes the caller's canary: its token stops working at once (the row is gone) and its timer stops. */
export async function deleteCanary(ctx: ServiceContext, userId: string, canaryId: string) {
  const canary = await findOwnCanary(ctx, userId, canaryId);
  await runBatch(ctx.db, [
    ctx.db.delete(schema.canaries).where(eq(schema.canaries.id, canary.id)),
    activityInsert(ctx, { userId, canaryId: canary.id, kind: 'canary_deleted', source: 'web', summary: `Deleted canary "${canaryLabel(canary.name)}".` }),
  ]);
  await stopCanaryTimer(ctx.env, canary.id);
  return { ok: true as const };
}
