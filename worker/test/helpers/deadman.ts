import { env } from 'cloudflare:test';
import { processDeadmanSwitches } from '../../src/domains/deadman/process-deadman';
import { sendOwnerNotice } from '../../src/domains/owner-notices/send-owner-notice';
import type { Channels } from '../../src/channels/registry';
import { servicesAt } from './canary';
import { captureQueues } from './messages';

/** The dead-man cron at `at`, its queued jobs held: what it did, and the owner notices it queued (deletions' warnings). */
export async function deadmanCronAt(at: number) {
  const { result, jobs } = await captureQueues(() => processDeadmanSwitches(servicesAt(at)));
  return { ...result, notices: jobs.filter((j) => j.body.type === 'owner_notice').map((j) => j.body.notice_id as string) };
}

/**
 * Sends the warning of the owner's scheduled dead-man deletion at `at` through the owner notices' JOBS handler
 * (the local outbox, unless `channels` are given): the notice has the deletion's id (domains/deadman/deletion-notice.ts).
 */
export async function sendDeletionWarning(ownerId: string, at: number, channels?: Channels) {
  const deletion = await env.DB.prepare("SELECT id FROM scheduled_deletions WHERE user_id = ? AND reason = 'deadman' AND status = 'scheduled'")
    .bind(ownerId)
    .first<{ id: string }>();
  if (!deletion) throw new Error(`no scheduled dead-man deletion for ${ownerId}`);
  return sendOwnerNotice(servicesAt(at), deletion.id, channels);
}
