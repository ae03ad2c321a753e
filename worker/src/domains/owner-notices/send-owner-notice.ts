import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import { createChannels, outboxChannels, type Channels } from '../../channels/registry';
import type { AddressedMessage, DeliveryResult } from '../../channels/types';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { clockOf } from '../canary/canary-timer';
import { WARNING_RESEND_MAX_MS } from '../canary/plan-wake';
import { DEADMAN_NOTICE_KIND } from '../deadman/deletion-notice';
import { carriesCheckInLink, issueCheckInLink } from '../canary/check-in-links';
import { getNotifyPreferences } from '../notify/preferences';
import { listPushSubscriptions, removeGoneSubscription } from '../notify/push-subscriptions';
import { QUEUE_MAX_DELAY_SECONDS } from '../messages/delivery/retry-policy';
import { quietHoursRemainingMs } from './quiet-hours';
import { activeGuardiansSql, messagesWaitingSql } from './stakes';
import type { OwnerNoticeJob } from '../../contracts/jobs';

/** Which alert switch governs a notice kind. */
const ALERT_OF: Record<string, 'messages' | 'vaults' | 'canary_events'> = {
  // A canary's warnings and its miss (domains/owner-notices/canary-notices.ts).
  canary_grace_reminder: 'canary_events',
  canary_late_rewarn: 'canary_events',
  canary_missed: 'canary_events',
  // A vacation pause ends in a day (docs/decisions/calendar-schedules.md): the next deadline follows it.
  canary_pause_ending: 'canary_events',
  message_armed: 'messages',
  message_released: 'messages',
  message_failed: 'messages',
  // A webhook endpoint answered 410 and was disabled (domains/webhooks/deliver.ts).
  webhook_disabled: 'canary_events',
  // The guardian ladder (domains/guardian/): who joined or left, a guardian saying you are fine.
  guardian_accepted: 'canary_events',
  guardian_declined: 'canary_events',
  guardian_resigned: 'canary_events',
  guardian_fine: 'canary_events',
  // Someone you wrote to deleted their account (domains/account/delete-account.ts).
  recipient_left: 'messages',
  // Someone accepted your contact invitation (domains/contacts/).
  contact_accepted: 'messages',
  // Your capsule or memorial post was hidden after reports, or removed by the memorial's creator (domains/moderation/).
  community_hidden: 'messages',
  community_removed: 'messages',
};

/**
 * A reported death (and its halfway reminder) reaches the owner on every channel they have — email,
 * verified phone, every push device — whatever their alert switches, chosen methods and quiet hours
 * (docs/server-rules.md "Guardians and death confirmation"): a warning they never see could become a false
 * confirmation of their death. So does a requested deletion of their account: one they did not ask for must not
 * go unseen.
 */
export const URGENT_NOTICE_KINDS = new Set(['death_reported', 'veto_halfway', 'account_deletion_requested']);

/**
 * The inactivity policy's notices (domains/inactivity/) also go out on every channel whatever the
 * switches — a person who has not signed in for a year may have stopped reading one of them — but they
 * wait for the end of quiet hours: nothing about them is urgent to the minute.
 */
export const EVERY_CHANNEL_NOTICE_KINDS = new Set(['inactivity_window_started', 'inactivity_reminder', 'account_archived', DEADMAN_NOTICE_KIND]);

/**
 * Notices that stand between the owner and a release: a canary's warnings and miss, and a message armed
 * to go unless they check in. While something could be released (`somethingAtStake`) the alert switches
 * do not mute them; and when none of the owner's chosen methods accepts one, every other way to reach
 * them is tried (verified phone, registered devices, account email). One that reaches no channel stays
 * pending and is tried again with backoff (`retryAfterMs`) — for a warning, nothing counts meanwhile.
 */
export const SAFETY_NOTICE_KINDS = new Set([
  'canary_grace_reminder',
  'canary_late_rewarn',
  'canary_missed',
  'canary_pause_ending',
  'message_armed',
  // A passed dead-man's switch: the deletion waits a full day after this reached the owner (domains/deadman/deletion-notice.ts).
  DEADMAN_NOTICE_KIND,
]);

/**
 * Notices that stop being true: sent only while the SQL condition (on the notice's id, ?1) still holds, else
 * skipped. A dead-man deletion's warning whose deletion a check-in cancelled before a channel took it.
 */
const STILL_TRUE_SQL: Record<string, string> = {
  [DEADMAN_NOTICE_KIND]: "EXISTS (SELECT 1 FROM scheduled_deletions WHERE id = ?1 AND status = 'scheduled')",
};

/** The warnings a canary's clock waits for: its object is told when a channel accepted one. */
export const CANARY_WARNING_KINDS = new Set(['canary_grace_reminder', 'canary_late_rewarn']);

/** Undelivered safety notices are tried again 1, 2, 4 … minutes later, at most half an hour apart (WARNING_RESEND_MAX_MS). */
export const retryAfterMs = (attempts: number) => Math.min(WARNING_RESEND_MAX_MS, 60_000 * 2 ** Math.max(0, attempts - 1));

const ALL_METHODS = ['email', 'sms', 'push'] as const;
type Method = (typeof ALL_METHODS)[number];

/** One try of one notice on one address: what Canary Status shows as "where each warning went". */
export interface NoticeAttempt {
  channel: Method | 'in_app';
  address: string;
  result: DeliveryResult;
}

/**
 * The JOBS consumer of owner notices (a message of theirs armed, released or failed; a canary's warning):
 * sent on each of the owner's chosen methods unless that alert is off (a safety notice while something is
 * at stake: never off, with every other method as fallback); inside quiet hours it waits (the job is
 * re-queued for their end — releases themselves never wait). Every try is recorded per channel. Marked sent
 * after a channel accepted it, so a crash re-sends rather than loses; the idempotency key lets the outbox
 * and providers drop the repeat. A canary warning's delivery is then reported to the canary's object.
 */
export async function sendOwnerNotice(
  ctx: ServiceContext,
  noticeId: string,
  channels: Channels = createChannels(ctx),
): Promise<'sent' | 'skipped' | 'delayed' | 'undelivered' | 'none'> {
  const [row] = await ctx.db
    .select({ notice: schema.ownerNotices, user: schema.users })
    .from(schema.ownerNotices)
    .innerJoin(schema.users, eq(schema.users.id, schema.ownerNotices.user_id))
    .where(eq(schema.ownerNotices.id, noticeId))
    .limit(1);
  const now = ctx.now();
  if (!row) return 'none';
  // Already delivered: a canary warning's object may not have heard yet (its report failed and the job was retried).
  if (row.notice.status !== 'pending') {
    if (row.notice.canary_id && CANARY_WARNING_KINDS.has(row.notice.kind)) {
      await reportWarning(ctx, row.notice.canary_id, noticeId, row.notice.sent_at ?? now, await acceptedChannels(ctx, noticeId));
    }
    return 'none';
  }
  // An early duplicate of a job waiting for quiet hours to end, or for its next try.
  if (row.notice.due_at.getTime() > now.getTime() + 1000) return 'none';
  const { notice, user } = row;
  const stillTrue = STILL_TRUE_SQL[notice.kind];
  if (stillTrue && !(await ctx.env.DB.prepare(`SELECT ${stillTrue} AS yes`).bind(noticeId).first<{ yes: number }>())?.yes) {
    await mark(ctx, noticeId, 'skipped', now);
    return 'skipped';
  }
  const prefs = await getNotifyPreferences(ctx, user.id);
  const urgent = URGENT_NOTICE_KINDS.has(notice.kind);
  const everyChannel = urgent || EVERY_CHANNEL_NOTICE_KINDS.has(notice.kind);
  const safety = SAFETY_NOTICE_KINDS.has(notice.kind) && (await somethingAtStake(ctx, user.id, notice.kind));
  const chosen: readonly Method[] = everyChannel ? ALL_METHODS : prefs.methods;
  // A sandbox key's notice is shown in the outbox, never sent (docs/decisions/api-keys.md).
  if (notice.outbox_only) channels = outboxChannels(ctx);

  if (!everyChannel && !safety && (!prefs.alerts[ALERT_OF[notice.kind] ?? 'messages'] || !prefs.methods.length)) {
    if (notice.canary_id && CANARY_WARNING_KINDS.has(notice.kind)) {
      // Muted, and nothing would be released by this canary: the activity feed is warning enough.
      await recordAttempts(ctx, notice, [{ channel: 'in_app', address: 'Activity feed', result: { ok: true } }], now);
      await mark(ctx, noticeId, 'skipped', now);
      await reportWarning(ctx, notice.canary_id, noticeId, now, 'in_app');
      return 'skipped';
    }
    await mark(ctx, noticeId, 'skipped', now);
    return 'skipped';
  }
  const waitMs = urgent ? 0 : quietHoursRemainingMs(now, prefs.quiet_hours, user.time_zone);
  if (waitMs > 0) {
    const delaySeconds = Math.min(QUEUE_MAX_DELAY_SECONDS, Math.ceil(waitMs / 1000));
    await ctx.db
      .update(schema.ownerNotices)
      .set({ due_at: new Date(now.getTime() + delaySeconds * 1000) })
      .where(eq(schema.ownerNotices.id, noticeId));
    await ctx.env.JOBS.send({ type: 'owner_notice', notice_id: noticeId } satisfies OwnerNoticeJob, { contentType: 'json', delaySeconds });
    return 'delayed';
  }

  // The notice is for the owner: locally it shows in their outbox only.
  // A canary's notice goes out with a one-tap check-in link of its own in place of the stored Canary Status link.
  const checkInLink = carriesCheckInLink(notice.kind, notice.canary_id)
    ? await issueCheckInLink(ctx, { userId: user.id, canaryId: notice.canary_id, noticeId })
    : null;
  const link = checkInLink ?? notice.link;
  const out: AddressedMessage = {
    idempotencyKey: `notice:${noticeId}`,
    recipientUserId: user.id,
    subject: notice.subject,
    text: checkInLink && notice.link ? notice.text.replaceAll(notice.link, checkInLink) : notice.text,
    ...(link ? { link } : {}),
  };
  const attempts = await tryMethods(ctx, channels, user, out, chosen);
  // A safety notice no chosen method took: every other way to reach the owner (whether or not the switches
  // could have muted it: a warning the owner did not mute must still reach them somewhere).
  if (SAFETY_NOTICE_KINDS.has(notice.kind) && !attempts.some((a) => a.result.ok)) {
    attempts.push(
      ...(await tryMethods(
        ctx,
        channels,
        user,
        out,
        ALL_METHODS.filter((m) => !chosen.includes(m)),
      )),
    );
  }
  await recordAttempts(ctx, notice, attempts, now);
  const accepted = attempts.filter((a) => a.result.ok);
  if (SAFETY_NOTICE_KINDS.has(notice.kind) && !accepted.length) {
    // Nothing reached the owner: tried again with backoff (the reconciler re-sends pending notices past
    // their due time); a canary's misses do not count meanwhile.
    const tries = notice.attempts + 1;
    await ctx.db
      .update(schema.ownerNotices)
      .set({ attempts: tries, due_at: new Date(now.getTime() + retryAfterMs(tries)) })
      .where(and(eq(schema.ownerNotices.id, noticeId), eq(schema.ownerNotices.status, 'pending')));
    log.warn('owner notice reached no channel; trying again later', { notice_id: noticeId, kind: notice.kind, attempts: tries });
    return 'undelivered';
  }
  // Every method failed in a way worth retrying: let the queue retry the job.
  if (attempts.length && attempts.every((a) => !a.result.ok && a.result.retryable)) {
    throw new Error(`owner notice not delivered on any method: ${attempts.map((a) => (a.result.ok ? '' : a.result.error)).join('; ')}`);
  }
  const warning = notice.canary_id && CANARY_WARNING_KINDS.has(notice.kind);
  // A warning reached the owner when a channel first accepted it: a retry after a crash between that
  // acceptance and the notice's mark (the job failed, the channel's idempotency key made this send a no-op)
  // reports the first acceptance, not itself — else the owner's timely reminder counted as late and their
  // misses waited a fresh grace period (found by docs/decisions/simulation.md, seed 11).
  // So does a dead-man deletion's warning, whose final day counts from it.
  const deliveredAt = warning || notice.kind === DEADMAN_NOTICE_KIND ? await firstAcceptedAt(ctx, noticeId, now) : now;
  await mark(ctx, noticeId, 'sent', deliveredAt);
  const via = [...new Set(accepted.map((a) => a.channel))].join(',');
  log.info('owner notice sent', { notice_id: noticeId, kind: notice.kind, methods: via });
  if (warning) await reportWarning(ctx, notice.canary_id!, noticeId, deliveredAt, via);
  return 'sent';
}

/** Sends `out` on each of `methods` the owner has an address for; one attempt per address (also the rehearsal's TEST copies). */
export async function tryMethods(
  ctx: ServiceContext,
  channels: Channels,
  user: { id: string; email: string; display_name: string | null; phone_e164: string | null; phone_verified_at: Date | null },
  out: AddressedMessage,
  methods: readonly Method[],
): Promise<NoticeAttempt[]> {
  const attempts: NoticeAttempt[] = [];
  for (const method of methods) {
    if (method === 'email') {
      const result = await channels.email(
        { email: user.email, ...(user.display_name ? { name: user.display_name } : {}) },
        { ...out, idempotencyKey: `${out.idempotencyKey}:email` },
      );
      attempts.push({ channel: 'email', address: maskEmail(user.email), result });
    }
    if (method === 'sms' && user.phone_e164 && user.phone_verified_at) {
      const result = await channels.sms(user.phone_e164, { ...out, idempotencyKey: `${out.idempotencyKey}:sms` });
      attempts.push({ channel: 'sms', address: maskPhone(user.phone_e164), result });
    }
    if (method === 'push') {
      for (const s of await listPushSubscriptions(ctx, user.id)) {
        const result = await channels.push(s, { ...out, idempotencyKey: `${out.idempotencyKey}:push:${s.id}` });
        if (!result.ok && result.gone) await removeGoneSubscription(ctx, s.id);
        attempts.push({ channel: 'push', address: pushAddress(s.endpoint), result });
      }
    }
  }
  return attempts;
}

/** "o•••@example.com": enough for the owner to recognise their address, not to read it off a screen. */
export const maskEmail = (email: string) => {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
};
/** "•••• 0123" */
export const maskPhone = (phone: string) => `•••• ${phone.slice(-4)}`;
/** A device by its push service's host (the endpoint itself is a capability and never shown). */
const pushAddress = (endpoint: string) => {
  try {
    return `device at ${new URL(endpoint).host}`;
  } catch {
    return 'device';
  }
};

async function recordAttempts(ctx: ServiceContext, notice: { id: string; user_id: string }, attempts: readonly NoticeAttempt[], at: Date) {
  if (!attempts.length) return;
  await ctx.db.insert(schema.ownerNoticeDeliveries).values(
    attempts.map((a, i) => ({
      // The table is ordered by (notice, at, id) and one try's attempts share `at`: the id starts with the
      // attempt's place so they read back in the order they were tried.
      id: `${i}-${crypto.randomUUID()}`,
      notice_id: notice.id,
      user_id: notice.user_id,
      channel: a.channel,
      address: a.address,
      ok: a.result.ok,
      error: a.result.ok ? null : a.result.error.slice(0, 300),
      // A repeated send the provider answered as a no-op was accepted at its first try: a retry after a
      // crash before the first try's rows were written dates the warning from then, not from the retry.
      at: a.result.ok && a.result.acceptedAt !== undefined && a.result.acceptedAt < at.getTime() ? new Date(a.result.acceptedAt) : at,
    })),
  );
}

/** When a channel first accepted this notice (its delivery rows), or `fallback` when none did earlier. */
async function firstAcceptedAt(ctx: ServiceContext, noticeId: string, fallback: Date): Promise<Date> {
  const row = await ctx.env.DB.prepare('SELECT min(at) AS at FROM owner_notice_deliveries WHERE notice_id = ? AND ok = 1')
    .bind(noticeId)
    .first<{ at: number | null }>();
  return row?.at != null && row.at < fallback.getTime() ? new Date(row.at) : fallback;
}

async function acceptedChannels(ctx: ServiceContext, noticeId: string): Promise<string> {
  const rows = await ctx.db
    .selectDistinct({ channel: schema.ownerNoticeDeliveries.channel })
    .from(schema.ownerNoticeDeliveries)
    .where(and(eq(schema.ownerNoticeDeliveries.notice_id, noticeId), eq(schema.ownerNoticeDeliveries.ok, true)));
  return rows.map((r) => r.channel).join(',') || 'unknown';
}

/**
 * Whether a canary's miss could release something of the owner's or set the guardian ladder going: a
 * message of theirs waiting for a rule, or an active guardian. A message armed is at stake by definition.
 */
async function somethingAtStake(ctx: ServiceContext, userId: string, kind: string): Promise<boolean> {
  // An armed message is at stake by definition, and so is the account a passed dead-man's switch deletes.
  if (kind === 'message_armed' || kind === DEADMAN_NOTICE_KIND) return true;
  const row = await ctx.env.DB.prepare(`SELECT ${messagesWaitingSql('?1')} + ${activeGuardiansSql('?1')} > 0 AS at_stake`)
    .bind(userId)
    .first<{ at_stake: number }>();
  return Boolean(row?.at_stake);
}

/** Tells a canary's object that its warning reached the owner (it then lets the misses count, a grace period on). */
async function reportWarning(ctx: ServiceContext, canaryId: string, transitionId: string, deliveredAt: Date, channel: string) {
  await clockOf(ctx.env, canaryId).warningDelivered(canaryId, transitionId, deliveredAt.getTime(), channel, ctx.now().getTime());
}

/**
 * Marks a notice sent (or skipped) and lets go of its body in the same write: the person holds what a channel
 * took, and Canary Status and the export show its subject and where it went (docs/decisions/notifications.md
 * "A sent notice keeps its subject, not its body"). A notice is the account's longest-kept row.
 */
async function mark(ctx: ServiceContext, id: string, status: 'sent' | 'skipped', at: Date) {
  await ctx.db
    .update(schema.ownerNotices)
    .set({ status, sent_at: at, text: '' })
    .where(and(eq(schema.ownerNotices.id, id), eq(schema.ownerNotices.status, 'pending')));
}
