import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, eq } from 'drizzle-orm';
import { createChannels, type Channels } from '../../channels/registry';
import type { AddressedMessage } from '../../channels/types';
import { REHEARSAL_COOLDOWN_MINUTES, type TRehearsal, type TRehearsalInput, type TRehearsalReach } from '../../contracts/rehearsal';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError } from '../../lib/errors';
import { insertWithinLimits, type Limit, wrote } from '../../lib/limited-insert';
import { canaryNoticeText, durationWords } from '../canary/canary-notice-texts';
import { cycleDeadlineOf } from '../canary/plan-wake';
import { quietHoursRemainingMs } from '../owner-notices/quiet-hours';
import { maskEmail, tryMethods, type NoticeAttempt } from '../owner-notices/send-owner-notice';
import { getNotifyPreferences } from '../notify/preferences';
import { listPushSubscriptions } from '../notify/push-subscriptions';
import { loadRehearsalFacts } from './load-rehearsal-facts';
import { planRehearsal, type PlannedStep, type RehearsalFacts } from './plan-rehearsal';
import { toRehearsal } from './read-rehearsals';

export const TEST_PREFIX = 'TEST — rehearsal:';
export const TEST_FIRST_LINE = 'This is a rehearsal: nothing was released and nothing was counted. No check-in was missed.';
const COOLDOWN_MS = REHEARSAL_COOLDOWN_MINUTES * 60_000;

/** One rehearsal per cooldown per account, held by the insert (worker/test/parallel-limits.test.ts). */
export const rehearsalLimits = (userId: string, now: number): Limit[] => [
  { count: 'SELECT count(*) FROM rehearsals WHERE user_id = ? AND created_at > ?', params: [userId, now - COOLDOWN_MS], max: 1 },
];

/**
 * POST /api/rehearsal ("Test everything", docs/decisions/rehearsal.md): plans what the engine would do if the
 * owner stopped checking in now (plan-rehearsal.ts), sends a TEST copy of each kind of warning and notice on
 * the owner's chosen channels through the adapters their real notices use, records what each channel answered
 * and, when asked, tells recipients and guardians that this was a rehearsal. Writes nothing but its own row:
 * no canary event, miss, transition, release, death report or delivery row. One per 10 minutes per account,
 * held by the insert (429 with Retry-After).
 */
export async function runRehearsal(ctx: ServiceContext, user: User, input: TRehearsalInput, channels: Channels = createChannels(ctx)): Promise<TRehearsal> {
  const now = ctx.now().getTime();
  const id = crypto.randomUUID();
  const inserted = wrote(
    await insertWithinLimits(
      ctx.env.DB,
      'rehearsals',
      { id, user_id: user.id, created_at: now, notify_recipients: !!input.notify_recipients, notify_guardians: !!input.notify_guardians, status: 'planning' },
      rehearsalLimits(user.id, now),
    ).run(),
  );
  if (!inserted) {
    const last = await ctx.env.DB.prepare('SELECT max(created_at) AS at FROM rehearsals WHERE user_id = ?').bind(user.id).first<{ at: number }>();
    const wait = Math.max(1, Math.ceil(((last?.at ?? now) + COOLDOWN_MS - now) / 1000));
    throw new AppError('TOO_MANY_REQUESTS', `One rehearsal per ${REHEARSAL_COOLDOWN_MINUTES} minutes: try again in ${durationWords(wait * 1000)}`, {
      'Retry-After': String(wait),
    });
  }

  const facts = await loadRehearsalFacts(ctx, user, now);
  const planned = planRehearsal(facts.plan);
  const prefs = await getNotifyPreferences(ctx, user.id);
  const pushDevices = (await listPushSubscriptions(ctx, user.id)).length;
  const methodGaps = prefs.methods.flatMap((m) => {
    if (m === 'sms' && !(user.phone_e164 && user.phone_verified_at)) return ['SMS: no verified phone — this warning would not reach you by SMS'];
    if (m === 'push' && !pushDevices) return ['push: no device registered — this warning would not reach you by push'];
    return [];
  });

  // One TEST copy per kind of notice the plan holds (its first step), on the owner's chosen methods; the same
  // fallback as a real safety notice when none of them accepts it.
  const copies = new Map<string, { reached: TRehearsalReach[]; gaps: string[] }>();
  const link = `${appOrigin(ctx.env)}/app/canary-status`;
  const canaryById = new Map(facts.plan.canaries.map((c) => [c.facts.id, c.facts]));
  for (const s of planned) {
    const key = copyKey(s);
    if (!key || copies.has(key)) continue;
    const text = noticeText(s, canaryById, user, link, facts.stakes);
    const out: AddressedMessage = {
      idempotencyKey: `rehearsal:${id}:${key}`,
      recipientUserId: user.id,
      subject: `${TEST_PREFIX} ${text.subject}`,
      text: `${TEST_FIRST_LINE}\n\n${text.text}`,
      link,
    };
    const attempts = await tryMethods(ctx, channels, user, out, prefs.methods);
    let fellBack = false;
    if (!attempts.some((a) => a.result.ok)) {
      fellBack = true;
      attempts.push(
        ...(await tryMethods(
          ctx,
          channels,
          user,
          out,
          (['email', 'sms', 'push'] as const).filter((m) => !prefs.methods.includes(m)),
        )),
      );
    }
    const reached = summarise(attempts, fellBack);
    const gaps = [...methodGaps];
    if (!attempts.some((a) => a.result.ok))
      gaps.push('No channel accepted this warning: a real one would be retried, and nothing would count until one reached you');
    copies.set(key, { reached, gaps });
  }

  const steps = planned.map((s) => {
    const copy = copyKey(s) ? copies.get(copyKey(s)!) : undefined;
    const gaps = [...(copy?.gaps ?? [])];
    if (copy) {
      const wait = quietHoursRemainingMs(new Date(s.at), prefs.quiet_hours, user.time_zone);
      if (wait > 0 && !s.conditional)
        gaps.push(`Falls in your quiet hours: this notice would wait ${durationWords(wait)}, and what it warns of counts from when it reaches you`);
    }
    const { warning: _warning, ...shown } = s;
    return { ...shown, at: new Date(s.at).toISOString(), reached: copy?.reached ?? [], gaps };
  });
  const gaps = [...new Set(steps.flatMap((s) => s.gaps))];
  if (!facts.plan.canaries.length)
    gaps.unshift('You have no active canary: no missed check-in would ever be counted, and nothing set to go on a missed check-in would go');
  // send-owner-notice.ts: a warning muted by the switches, with nothing at stake, goes to the activity feed only.
  if ((!prefs.alerts.canary_events || !prefs.methods.length) && !facts.stakes.messagesWaiting && !facts.stakes.guardians)
    gaps.push('Canary alerts are off and nothing of yours is at stake: a real warning would show only in your activity feed');
  if (!facts.messagesConsent) gaps.push('Your messages consent is withdrawn: none of your messages would be armed or released until you allow it again');

  const othersTold = await tellOthers(channels, id, user, input, facts);
  const report = { steps, gaps, others_told: othersTold };
  await ctx.db
    .update(schema.rehearsals)
    .set({ status: 'done', report })
    .where(and(eq(schema.rehearsals.id, id), eq(schema.rehearsals.user_id, user.id)));
  return toRehearsal({
    id,
    created_at: new Date(now),
    status: 'done',
    notify_recipients: !!input.notify_recipients,
    notify_guardians: !!input.notify_guardians,
    report,
  });
}

/** Which TEST copy a step is told by (null: nobody is told of it, or not the owner). */
function copyKey(s: PlannedStep): string | null {
  if (s.conditional) return null;
  if (s.kind === 'warning') return s.warning ?? 'grace_reminder';
  if (s.kind === 'miss' && s.misses === 1) return 'missed';
  if (s.kind === 'message_armed') return 'message_armed';
  return null;
}

function noticeText(
  s: PlannedStep,
  canaries: Map<string, RehearsalFacts['canaries'][number]['facts']>,
  user: User,
  link: string,
  stakes: { messagesWaiting: number; guardians: number },
) {
  const canary = s.canary_id ? canaries.get(s.canary_id) : undefined;
  if (canary && (s.kind === 'warning' || s.kind === 'miss')) {
    const kind = s.kind === 'miss' ? 'missed' : (s.warning ?? 'grace_reminder');
    return canaryNoticeText(
      {
        type: 'canary_notice',
        transition_id: crypto.randomUUID(),
        kind,
        canary_id: canary.id,
        user_id: user.id,
        canary_name: canary.name,
        interval_seconds: canary.interval_seconds,
        cycle_deadline: cycleDeadlineOf(canary),
        recorded_at: s.at,
      },
      stakes,
      link,
      user.time_zone,
    );
  }
  return { subject: s.title, text: `${s.detail}\n\nCheck in: ${link}` };
}

function summarise(attempts: readonly NoticeAttempt[], fellBack: boolean): TRehearsalReach[] {
  const byChannel = new Map<string, NoticeAttempt[]>();
  for (const a of attempts) byChannel.set(a.channel, [...(byChannel.get(a.channel) ?? []), a]);
  return [...byChannel.entries()].flatMap(([channel, tries]) => {
    if (channel === 'push') {
      const ok = tries.filter((t) => t.result.ok).length;
      return [
        {
          channel: 'push' as const,
          address: `${tries.length} device${tries.length === 1 ? '' : 's'}`,
          ok: ok > 0,
          note: `${fellBack ? 'fallback: ' : ''}delivered to ${ok} of ${tries.length} device${tries.length === 1 ? '' : 's'}`,
        },
      ];
    }
    return tries.map((t) => ({
      channel: t.channel,
      address: t.address,
      ok: t.result.ok,
      note: `${fellBack ? 'fallback: ' : ''}${t.result.ok ? 'accepted' : `failed: ${t.result.error.slice(0, 200)}`}`,
    }));
  });
}

/** The opted-in TEST notices to recipients and guardians: by email, saying plainly that nothing was released. */
async function tellOthers(
  channels: Channels,
  id: string,
  owner: User,
  input: TRehearsalInput,
  facts: Awaited<ReturnType<typeof loadRehearsalFacts>>,
): Promise<TRehearsal['others_told']> {
  const name = owner.display_name?.trim() || owner.email;
  const told: TRehearsal['others_told'] = [];
  const send = async (who: 'recipient' | 'guardian', userId: string | null, email: string, role: string) => {
    const result = await channels.email(
      { email },
      {
        idempotencyKey: `rehearsal:${id}:${who}:${email}`,
        recipientUserId: userId,
        subject: `${TEST_PREFIX} ${name} is testing Afterword`,
        text: `${TEST_FIRST_LINE}\n\n${name} ran a rehearsal of what would happen if they stopped checking in. You are ${role}. This is a rehearsal; nothing was released, and nothing is asked of you.`,
      },
    );
    told.push({ who, address: maskEmail(email), ok: result.ok, note: result.ok ? 'accepted' : `failed: ${result.error.slice(0, 200)}` });
  };
  if (input.notify_recipients) for (const r of facts.recipients) await send('recipient', r.id, r.email, 'one of the people they wrote to');
  if (input.notify_guardians) for (const g of facts.guardians) await send('guardian', g.userId, g.email, 'one of their guardians');
  return told;
}
