import { schema } from '@afterword/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { ServiceContext } from '../../../env';
import { currentMisses, firingMissRule } from './arm-on-missed-checkins';
import { loadEngineMessage } from './load-message';
import { syncReleaseTimer } from './release-timer';
import { armMessage } from './transitions';

/**
 * The sender allowed messages again (POST /api/legal/consent/messages {consent: true}): every open
 * message resumes under the normal rules. Canary events that came while paused were dropped, so a
 * missed_checkins rule the current run of misses satisfies arms now (as at create); then each clock is
 * re-synced (set-death-confirmed.ts does the same for a confirmed death) and applies what came due while
 * paused — a fixed date or a death delay arms now with its full cancel window; an armed message whose
 * window ended meanwhile, or a rule-less one past its deliver_at, is released.
 */
export async function resumeReleases(ctx: ServiceContext, senderId: string): Promise<void> {
  const open = await ctx.db
    .select({ id: schema.messages.id, status: schema.messages.status, rules: schema.messages.rules })
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, senderId), inArray(schema.messages.status, ['scheduled', 'armed'])));
  const misses = open.some((m) => m.status === 'scheduled' && m.rules.some((r) => r.trigger_type === 'missed_checkins'))
    ? await currentMisses(ctx, senderId)
    : 0;
  const now = ctx.now().getTime();
  for (const m of open) {
    if (m.status === 'scheduled' && misses > 0 && firingMissRule(m.rules, misses) >= 0) {
      const loaded = await loadEngineMessage(ctx, m.id);
      const index = loaded?.message.status === 'scheduled' ? firingMissRule(loaded.message.rules, misses) : -1;
      if (loaded && index >= 0) {
        await armMessage(ctx, loaded, index, now, `${misses} missed check-in${misses === 1 ? '' : 's'} in a row when messages were allowed again`);
      }
    }
    await syncReleaseTimer(ctx.env, m.id);
  }
}
