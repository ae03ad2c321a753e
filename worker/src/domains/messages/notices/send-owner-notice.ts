import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import { createChannels, outboxChannels, type Channels } from '../../../channels/registry';
import type { AddressedMessage, DeliveryResult } from '../../../channels/types';
import type { ServiceContext } from '../../../env';
import { log } from '../../../lib/logger';
import { getNotifyPreferences } from '../../notify/preferences';
import { listPushSubscriptions, removeGoneSubscription } from '../../notify/push-subscriptions';
import { QUEUE_MAX_DELAY_SECONDS } from '../delivery/retry-policy';
import { quietHoursRemainingMs } from './quiet-hours';

import type { OwnerNoticeJob } from '../../../contracts/jobs';
export type { OwnerNoticeJob };

/** Which alert switch governs a notice kind. */
const ALERT_OF: Record<string, 'messages' | 'vaults' | 'canary_events'> = {
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
 * (DESIGN section 5): a warning they never see could become a false confirmation of their death. So
 * does a requested deletion of their account (issue 14): one they did not ask for must not go unseen.
 */
export const URGENT_NOTICE_KINDS = new Set(['death_reported', 'veto_halfway', 'account_deletion_requested']);

/**
 * The inactivity policy's notices (domains/inactivity/) also go out on every channel whatever the
 * switches — a person who has not signed in for a year may have stopped reading one of them — but they
 * wait for the end of quiet hours: nothing about them is urgent to the minute.
 */
export const EVERY_CHANNEL_NOTICE_KINDS = new Set(['inactivity_window_started', 'inactivity_reminder', 'account_archived']);

/**
 * The JOBS consumer of owner notices (a message of theirs armed, released or failed): sent on each of
 * the owner's chosen methods unless that alert is off; inside quiet hours it waits (the job is re-queued
 * for their end — releases themselves never wait). Marked sent after sending, so a crash re-sends rather
 * than loses; the idempotency key lets the outbox and providers drop the repeat.
 */
export async function sendOwnerNotice(
  ctx: ServiceContext,
  noticeId: string,
  channels: Channels = createChannels(ctx),
): Promise<'sent' | 'skipped' | 'delayed' | 'none'> {
  const [row] = await ctx.db
    .select({ notice: schema.ownerNotices, user: schema.users })
    .from(schema.ownerNotices)
    .innerJoin(schema.users, eq(schema.users.id, schema.ownerNotices.user_id))
    .where(eq(schema.ownerNotices.id, noticeId))
    .limit(1);
  const now = ctx.now();
  // Not pending, or an early duplicate of a job already waiting for its quiet hours to end.
  if (row?.notice.status !== 'pending' || row.notice.due_at.getTime() > now.getTime() + 1000) return 'none';
  const { notice, user } = row;
  const prefs = await getNotifyPreferences(ctx, user.id);
  const urgent = URGENT_NOTICE_KINDS.has(notice.kind);
  const everyChannel = urgent || EVERY_CHANNEL_NOTICE_KINDS.has(notice.kind);
  const methods = everyChannel ? (['email', 'sms', 'push'] as const) : prefs.methods;
  // A sandbox key's notice is shown in the outbox, never sent (docs/decisions/api-keys.md).
  if (notice.outbox_only) channels = outboxChannels(ctx);

  if (!everyChannel && (!prefs.alerts[ALERT_OF[notice.kind] ?? 'messages'] || !prefs.methods.length)) {
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
  const out: AddressedMessage = {
    idempotencyKey: `notice:${noticeId}`,
    recipientUserId: user.id,
    subject: notice.subject,
    text: notice.text,
    ...(notice.link ? { link: notice.link } : {}),
  };
  const results: DeliveryResult[] = [];
  for (const method of methods) {
    if (method === 'email')
      results.push(
        await channels.email(
          { email: user.email, ...(user.display_name ? { name: user.display_name } : {}) },
          { ...out, idempotencyKey: `${out.idempotencyKey}:email` },
        ),
      );
    if (method === 'sms' && user.phone_e164 && user.phone_verified_at)
      results.push(await channels.sms(user.phone_e164, { ...out, idempotencyKey: `${out.idempotencyKey}:sms` }));
    if (method === 'push') {
      for (const s of await listPushSubscriptions(ctx, user.id)) {
        const r = await channels.push(s, { ...out, idempotencyKey: `${out.idempotencyKey}:push:${s.id}` });
        if (!r.ok && r.gone) await removeGoneSubscription(ctx, s.id);
        results.push(r);
      }
    }
  }
  // Every method failed in a way worth retrying: let the queue retry the job.
  if (results.length && results.every((r) => !r.ok && r.retryable)) {
    throw new Error(`owner notice not delivered on any method: ${results.map((r) => (r.ok ? '' : r.error)).join('; ')}`);
  }
  await mark(ctx, noticeId, 'sent', now);
  log.info('owner notice sent', { notice_id: noticeId, kind: notice.kind, methods: methods.join(',') });
  return 'sent';
}

async function mark(ctx: ServiceContext, id: string, status: 'sent' | 'skipped', at: Date) {
  await ctx.db
    .update(schema.ownerNotices)
    .set({ status, sent_at: at })
    .where(and(eq(schema.ownerNotices.id, id), eq(schema.ownerNotices.status, 'pending')));
}
