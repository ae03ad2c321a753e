import { schema } from '@afterword/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../../env';
import { syncReleaseTimer } from './release-timer';

/**
 * The one entry that records a confirmed death (DESIGN section 5: the guardian capability calls it once
 * the waiting period passes unrefuted). It fires `delay_after_death` rules through each message's
 * clock; `at` = null withdraws the flag (a refuted report) before any of them fired.
 */
export async function setDeathConfirmed(ctx: ServiceContext, userId: string, at: Date | null): Promise<void> {
  await ctx.db.update(schema.users).set({ death_confirmed_at: at }).where(eq(schema.users.id, userId));
  const open = await ctx.db
    .select({ id: schema.messages.id, rules: schema.messages.rules })
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, userId), inArray(schema.messages.status, ['scheduled', 'armed'])));
  for (const m of open) {
    if (m.rules.some((r) => r.trigger_type === 'delay_after_death')) await syncReleaseTimer(ctx.env, m.id);
  }
}
