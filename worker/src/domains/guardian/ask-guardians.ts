import { appOrigin } from '../../lib/app-origin';
import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { MissedCheckinsEvent } from '../../contracts/jobs';
import { deadlineOfStored } from '../../contracts/canary-health';
import type { ServiceContext } from '../../env';
import { settleCanaries } from '../canary/canary-timer';
import { hasConsent } from '../legal/consent-state';
import { enqueueGuardianNotices, noticeToActiveGuardians } from './guardian-notices';
import { returnedIds } from '../../lib/db-batch';
import { loadSettings, personName, readable, recordStep } from './ladder-records';

/**
 * The `missed_checkins` subscriber of the ladder (step 1): once the owner's misses reach
 * `ask_after_misses`, each active guardian is asked "Have you heard from {name}?" — once per missed
 * cycle of a canary (dedupe key), however often the event is redelivered. An event of a cycle a
 * check-in already ended asks nobody (the release engine's stale-event rule), nor one after the death
 * is confirmed, nor while the owner's guardian consent is withdrawn. The email links to the guardian page, where the three answers are (a GET never answers:
 * mail scanners follow links).
 */
export async function askGuardians(ctx: ServiceContext, event: MissedCheckinsEvent): Promise<number> {
  const settings = await loadSettings(ctx, event.user_id);
  if (event.misses < settings.ask_after_misses) return 0;
  // Whether the event is stale is read from D1, so D1 first agrees with the canary's object: a check-in it
  // has not projected yet still ends the cycle, and nobody is asked (docs/decisions/canary-engine.md).
  await settleCanaries(ctx.env, [event.canary_id]);
  const [canary] = await ctx.db.select().from(schema.canaries).where(eq(schema.canaries.id, event.canary_id)).limit(1);
  if (!canary || deadlineOfStored(canary) !== Date.parse(event.deadline)) return 0;
  const [owner] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, event.user_id)).limit(1);
  if (!owner || owner.death_confirmed_at) return 0;
  // The owner withdrew the guardian consent: nobody is asked about them.
  if (!(await hasConsent(ctx, owner.id, 'guardian'))) return 0;

  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const name = personName(owner);
  const step = recordStep(
    db,
    {
      ownerId: owner.id,
      kind: 'guardians_asked',
      actor: 'system',
      cause: 'missed_checkins',
      detail: `${event.misses} missed check-in(s), deadline ${readable(Date.parse(event.deadline))}`,
      dedupeKey: `asked:${event.canary_id}:${event.deadline}`,
      at: now,
    },
    // Only when there is someone to ask: a ladder without active guardians records no "asked".
    { sql: "WHERE EXISTS (SELECT 1 FROM guardians WHERE owner_id = ? AND status = 'active')", params: [owner.id] },
  );
  const results = await db.batch([
    step.statement,
    noticeToActiveGuardians(
      db,
      owner.id,
      {
        kind: 'asked',
        subject: `Have you heard from ${name}?`,
        text: [
          `${name} missed a check-in on Afterword (it was due ${readable(Date.parse(event.deadline))}). You are one of their guardians: have you heard from them?`,
          `Answer on your guardian page: ${appOrigin(ctx.env)}/app/guardian`,
          `- They are fine: we ask them to check in.\n- Hold for some days (up to 30): nothing set to go after their death moves meanwhile — for example while they are in hospital.\n- Report their death: once ${settings.quorum === 1 ? 'a guardian reports it' : `${settings.quorum} guardians report it`}, ${name} is told on every channel and has ${settings.veto_window_hours} hours to refute it by checking in.`,
          'You never see their messages or files.',
        ].join('\n\n'),
        sandbox: false,
        at: now,
      },
      { sql: 'EXISTS (SELECT 1 FROM ladder_transitions WHERE id = ?)', params: [step.id] },
    ),
  ]);
  const ids = returnedIds(results.slice(1));
  await enqueueGuardianNotices(ctx, ids);
  return ids.length;
}
