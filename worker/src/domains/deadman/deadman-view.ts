import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { TDeadman } from '../../contracts/deadman';
import type { ServiceContext } from '../../env';

export const INACTIVE_DEADMAN: TDeadman = { active: false, hours: null, deadline: null };

export async function getDeadman(ctx: ServiceContext, userId: string): Promise<TDeadman> {
  const [row] = await ctx.db.select().from(schema.deadmanSwitches).where(eq(schema.deadmanSwitches.user_id, userId)).limit(1);
  return row ? { active: true, hours: row.hours, deadline: row.deadline.toISOString() } : INACTIVE_DEADMAN;
}
