import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { TActivity } from '../../contracts/activity';
import { CHECK_IN_SOURCE_WORDS, canaryLabel } from '../../contracts/canary';
import type { ClockCheckIn } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { KEEP_CHECK_INS } from '../../durable/check-in-log';
import type { ActivityLineSource } from '../activity/line-sources';
import { keepActivityLines } from '../activity/record-activity';
import { clockOf } from './canary-timer';

/**
 * The feed's lines for the check-ins a canary's object answers itself — a token, a ping, a warning's link
 * (check-in.ts checkInCanary). D1 stores no row for each: the object keeps its last KEEP_CHECK_INS check-ins in the
 * row every check-in writes anyway, and the lines are made from them when the feed is read
 * (docs/decisions/check-in-history.md). The signed-in Heartbeat's check-ins (the app's button, a passkey) keep the
 * one D1 line their batch writes, naming every canary; the objects hold them too, and they are left out here.
 */
const OBJECT_SOURCES: ReadonlySet<string> = new Set<ClockCheckIn['source']>(['token', 'ping', 'link']);

/** A check-in's line, in the words of the Heartbeat's D1 line (check-in-projection.ts `sourceWords`, `CANARY_LABEL`). */
const checkInLine = (canaryId: string, name: string, c: ClockCheckIn): TActivity => ({
  id: c.event_id,
  kind: 'check_in',
  source: c.source,
  canary_id: canaryId,
  summary: `Checked in ${CHECK_IN_SOURCE_WORDS[c.source]}: "${canaryLabel(name)}".`,
  created_at: new Date(c.at).toISOString(),
});

async function activeCanaryIds(ctx: ServiceContext, userId: string): Promise<string[]> {
  const rows = await ctx.db
    .select({ id: schema.canaries.id })
    .from(schema.canaries)
    .where(and(eq(schema.canaries.user_id, userId), eq(schema.canaries.active, true)));
  return rows.map((r) => r.id);
}

/**
 * Each canary's latest `limit` check-ins as lines (those its object answered). `strict`: an object that cannot answer
 * fails the whole read (a reader that must not lose a line); otherwise its lines are left out and it is logged.
 */
async function linesOf(ctx: ServiceContext, canaryIds: readonly string[], limit: number, strict: boolean): Promise<TActivity[]> {
  const held = await Promise.all(
    canaryIds.map(async (id) => {
      try {
        return { id, held: await clockOf(ctx.env, id).recentCheckIns(limit) };
      } catch (err) {
        if (strict) throw err;
        log.warn('could not read a canary’s check-ins for the feed; showing the rest', { canary_id: id, error: String(err) });
        return { id, held: null };
      }
    }),
  );
  return held.flatMap(({ id, held }) => (held ? held.check_ins.filter((c) => OBJECT_SOURCES.has(c.source)).map((c) => checkInLine(id, held.name, c)) : []));
}

/**
 * Writes canaries' check-in lines into D1's `activity`, once each (their id is the check-in's event id): before a
 * canary is deleted — its object's log goes with it, the feed keeps its lines — and before an export. Throws when
 * an object cannot answer: the caller would otherwise lose lines.
 */
export async function keepCheckInLines(ctx: ServiceContext, userId: string, canaryIds: readonly string[]): Promise<void> {
  await keepActivityLines(ctx, userId, await linesOf(ctx, canaryIds, KEEP_CHECK_INS, true));
}

/** The canaries' check-in lines as the activity domain reads them (wired in wiring/service-context.ts). */
export const canaryCheckInLines: ActivityLineSource = {
  async recent(ctx, userId, limit) {
    return linesOf(ctx, await activeCanaryIds(ctx, userId), limit, false);
  },
  async keep(ctx, userId) {
    await keepCheckInLines(ctx, userId, await activeCanaryIds(ctx, userId));
  },
};
