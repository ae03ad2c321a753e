import { schema } from '@afterword/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../../env';
import { syncReleaseTimer } from './release-timer';
import { DEATH_RULE_TYPES } from './schedule';

/**
 * The one writer of `users.death_confirmed_at` (docs/server-rules.md "Guardians and death confirmation"), for
 * the guardian ladder's confirming batch: it sets the flag only while it is still null and only when `when`
 * holds (SQL after `AND`, e.g. "the report's compare-and-set won in this batch"), so however many alarms,
 * reconciler passes or queue redeliveries arrive, the flag is set once, atomically with the report's
 * confirmation. A confirmed death is never withdrawn by the ladder: a report can only be refuted before its
 * window ends.
 */
export function deathFlagStatement(db: D1Database, userId: string, at: number, when: { sql: string; params?: unknown[] }): D1PreparedStatement {
  return db
    .prepare(`UPDATE users SET death_confirmed_at = ?, updated_at = ? WHERE id = ? AND death_confirmed_at IS NULL AND ${when.sql}`)
    .bind(at, at, userId, ...(when.params ?? []));
}

/**
 * What follows a set flag: `delay_after_death` rules start counting — each open message of the sender
 * with such a rule has its clock re-synced (it reads the flag from D1). The vault's items are messages
 * too: a `death_flag` item is a delay of 0 days, a birthday item a `recipient_birthday` rule, so they are
 * released and scheduled here. Idempotent, so the ladder's `death_confirmed` job may run it any number
 * of times.
 */
export async function setDeathConfirmed(ctx: ServiceContext, userId: string): Promise<void> {
  const open = await ctx.db
    .select({ id: schema.messages.id, rules: schema.messages.rules })
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, userId), inArray(schema.messages.status, ['scheduled', 'armed'])));
  for (const m of open) {
    if (m.rules.some((r) => (DEATH_RULE_TYPES as readonly string[]).includes(r.trigger_type))) await syncReleaseTimer(ctx.env, m.id);
  }
}
