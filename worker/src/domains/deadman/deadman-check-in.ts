import { schema } from '@afterword/db';
import { and, eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { ServiceContext } from '../../env';
import { activityInsert } from '../activity/record-activity';

/**
 * What a check-in does to the dead-man's switch: its deadline becomes now + hours, and a deletion it
 * had scheduled is cancelled (the owner is evidently alive). Returned as statements for the
 * check-in's own batch, so both change together.
 */
export async function deadmanCheckInStatements(ctx: ServiceContext, userId: string, now: Date): Promise<BatchItem<'sqlite'>[]> {
  const statements: BatchItem<'sqlite'>[] = [
    ctx.db
      .update(schema.deadmanSwitches)
      .set({ deadline: sql`${now.getTime()} + CAST(${schema.deadmanSwitches.hours} * 3600000 AS INTEGER)` })
      .where(eq(schema.deadmanSwitches.user_id, userId)),
  ];
  const scheduled = await ctx.db
    .select({ id: schema.scheduledDeletions.id })
    .from(schema.scheduledDeletions)
    .where(and(eq(schema.scheduledDeletions.user_id, userId), eq(schema.scheduledDeletions.status, 'scheduled')));
  if (scheduled.length) {
    statements.push(
      ctx.db
        .update(schema.scheduledDeletions)
        .set({ status: 'cancelled', done_at: now })
        .where(and(eq(schema.scheduledDeletions.user_id, userId), eq(schema.scheduledDeletions.status, 'scheduled'))),
      activityInsert(ctx, { userId, kind: 'deadman_cancelled', source: 'system', at: now, summary: 'Your check-in cancelled the scheduled deletion of your account.' }),
    );
  }
  return statements;
}
