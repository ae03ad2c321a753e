import { schema } from '@afterword/db';
import type { Rehearsal } from '@afterword/db/schema';
import { and, desc, eq } from 'drizzle-orm';
import type { TRehearsal, TRehearsalList } from '../../contracts/rehearsal';
import type { ServiceContext } from '../../env';
import { notFound } from '../../lib/errors';

/** How many rehearsals the list shows (newest first). */
const SHOWN = 20;

export function toRehearsal(row: Pick<Rehearsal, 'id' | 'created_at' | 'status' | 'notify_recipients' | 'notify_guardians' | 'report'>): TRehearsal {
  const report = (row.report ?? {}) as Partial<Pick<TRehearsal, 'steps' | 'gaps' | 'others_told'>>;
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    status: row.status,
    notify_recipients: row.notify_recipients,
    notify_guardians: row.notify_guardians,
    steps: report.steps ?? [],
    gaps: report.gaps ?? [],
    others_told: report.others_told ?? [],
  };
}

/** GET /api/rehearsal/{id}: 404 when it is not the caller's. */
export async function getRehearsal(ctx: ServiceContext, userId: string, id: string): Promise<TRehearsal> {
  const [row] = await ctx.db
    .select()
    .from(schema.rehearsals)
    .where(and(eq(schema.rehearsals.id, id), eq(schema.rehearsals.user_id, userId)))
    .limit(1);
  if (!row) throw notFound();
  return toRehearsal(row);
}

/** GET /api/rehearsal: the caller's rehearsals, newest first. */
export async function listRehearsals(ctx: ServiceContext, userId: string): Promise<TRehearsalList> {
  const rows = await ctx.db
    .select()
    .from(schema.rehearsals)
    .where(eq(schema.rehearsals.user_id, userId))
    .orderBy(desc(schema.rehearsals.created_at))
    .limit(SHOWN);
  return { rehearsals: rows.map(toRehearsal) };
}
