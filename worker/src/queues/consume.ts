import type { z } from 'zod';
import { type Projection, ZProjection, ZQueueJob, type QueueJob } from '../contracts/jobs';
import { clockOf } from '../domains/canary/canary-timer';
import { applyProjections } from '../domains/canary/projection-batch';
import { dispatchMissedCheckins, type MissedCheckinsSubscriber, subscribersReaching } from '../wiring/missed-event-subscribers';
import { sendCanaryNotice } from '../domains/owner-notices/canary-notices';
import { sendContactInvitation } from '../domains/contacts/send-invitation';
import { completeDeathConfirmation } from '../domains/guardian/complete-confirmation';
import { buildLegacyCopy } from '../domains/legacy/build-copy';
import { moveUserFiles } from '../domains/inactivity/cold-storage';
import { sendGuardianNotice } from '../domains/guardian/guardian-notices';
import { deliverMessage } from '../domains/messages/delivery/deliver-message';
import { sendOwnerNotice } from '../domains/owner-notices/send-owner-notice';
import { deliverWebhook } from '../domains/webhooks/deliver';
import { runVoiceTraining } from '../domains/voice/training';
import { runChatImport } from '../domains/chat-import/run-import';
import { runClonedVoiceDelete } from '../domains/voice/cloned-voice';
import { log } from '../lib/logger';
import type { Bindings } from '../env';
import { createServiceContext } from '../wiring/service-context';

/**
 * Queue consumer for deliveries and jobs. Every body is parsed with its schema (contracts/jobs.ts)
 * before a handler runs; each type gets a handler from its domain. A body that fails its schema, or a
 * type with no handler, is a bug in a producer: it is logged (its issues, not its contents) and
 * acknowledged so it cannot block the batch, never retried forever.
 */
type Handlers = {
  [T in QueueJob['type']]: (job: Extract<QueueJob, { type: T }>, env: Bindings, delivery: DeliveryFacts) => Promise<void>;
};

/**
 * What a delivery's jobs need to know, read once for all of them: which subscribers each
 * `missed_checkins` sender has (missed-event-subscribers.ts). Absent when the read failed: each event
 * then reads its own.
 */
interface DeliveryFacts {
  reaching?: Map<string, MissedCheckinsSubscriber[]>;
}

const handlers: Handlers = {
  missed_checkins: (job, env, delivery) => dispatchMissedCheckins(job, env, delivery.reaching?.get(job.user_id)),
  deliver: (job, env) => deliverMessage(createServiceContext(env), job.delivery_id),
  owner_notice: async (job, env) => void (await sendOwnerNotice(createServiceContext(env), job.notice_id)),
  canary_notice: async (job, env) => void (await sendCanaryNotice(createServiceContext(env), job)),
  webhook: async (job, env) => void (await deliverWebhook(createServiceContext(env), job.delivery_id)),
  guardian_notice: async (job, env) => void (await sendGuardianNotice(createServiceContext(env), job.notice_id)),
  contact_invitation: async (job, env) => void (await sendContactInvitation(createServiceContext(env), job)),
  death_confirmed: async (job, env) => void (await completeDeathConfirmation(createServiceContext(env), job.report_id)),
  legacy_copy: async (job, env) => void (await buildLegacyCopy(createServiceContext(env), job.copy_id)),
  storage_class: async (job, env) => void (await moveUserFiles(createServiceContext(env), job)),
  voice_training: async (job, env) => void (await runVoiceTraining(createServiceContext(env), job)),
  chat_import: async (job, env) => void (await runChatImport(createServiceContext(env), job)),
  cloned_voice_delete: async (job, env) => void (await runClonedVoiceDelete(createServiceContext(env), job)),
  canary_stop: (job, env) => clockOf(env, job.canary_id).stop(),
  canary_note_check_in: async (job, env) => void (await clockOf(env, job.canary_id).noteCheckIn(job.canary_id, job.entry)),
};

/**
 * Jobs of one delivery run this many at a time. Each is independent and idempotent — production already
 * runs whole batches in parallel invocations — and one at a time made the last of a hundred releases wait
 * for the ninety-nine before it, each a few D1 and object round trips (docs/performance.md).
 */
export const JOB_CONCURRENCY = 10;

export async function consumeBatch(batch: MessageBatch<unknown>, env: Bindings) {
  if (batch.queue.startsWith('afterword-projections')) return consumeProjections(batch, env);
  const waiting: { message: Message<unknown>; job: QueueJob }[] = [];
  for (const message of batch.messages) {
    const parsed = ZQueueJob.safeParse(message.body);
    if (parsed.success) waiting.push({ message, job: parsed.data });
    else refuse(batch.queue, message, parsed.error);
  }
  const delivery = await deliveryFacts(
    env,
    waiting.map((w) => w.job),
  );
  const worker = async () => {
    for (let next = waiting.shift(); next; next = waiting.shift()) await consumeOne(batch.queue, next.message, next.job, env, delivery);
  };
  await Promise.all(Array.from({ length: Math.min(JOB_CONCURRENCY, waiting.length) }, worker));
}

async function deliveryFacts(env: Bindings, jobs: readonly QueueJob[]): Promise<DeliveryFacts> {
  const senders = jobs.flatMap((j) => (j.type === 'missed_checkins' ? [j.user_id] : []));
  if (!senders.length) return {};
  try {
    return { reaching: await subscribersReaching(env, senders) };
  } catch (err) {
    log.warn('could not read the subscribers of a delivery; each event reads its own', { error: String(err) });
    return {};
  }
}

async function consumeOne(queue: string, message: Message<unknown>, job: QueueJob, env: Bindings, delivery: DeliveryFacts) {
  try {
    await (handlers[job.type] as (job: QueueJob, env: Bindings, delivery: DeliveryFacts) => Promise<void>)(job, env, delivery);
    message.ack();
  } catch (err) {
    log.error('queue handler failed; will retry', { queue, id: message.id, type: job.type, error: String(err) });
    message.retry();
  }
}

/**
 * The PROJECTIONS queue: what the canaries' objects recorded (check-ins, timer events), written into D1
 * together — one batch for the whole delivery, so the busier it gets the fewer round trips each costs
 * (domains/canary/projection-batch.ts). Every write is idempotent, so a retry or a redelivery changes
 * nothing twice.
 */
async function consumeProjections(batch: MessageBatch<unknown>, env: Bindings) {
  const valid: { message: Message<unknown>; job: Projection }[] = [];
  for (const message of batch.messages) {
    const parsed = ZProjection.safeParse(message.body);
    if (parsed.success) valid.push({ message, job: parsed.data });
    else refuse(batch.queue, message, parsed.error);
  }
  const { done, retry } = await applyProjections(
    createServiceContext(env),
    valid.map((v) => v.job),
  );
  for (const i of done) valid[i]!.message.ack();
  for (const i of retry) valid[i]!.message.retry();
}

/** A body that fails its schema is a producer's bug: logged (its issues, not its contents) and acknowledged, never retried. */
function refuse(queue: string, message: Message<unknown>, error: z.ZodError) {
  log.error('queue message refused by its schema', {
    queue,
    id: message.id,
    type: String((message.body as { type?: unknown } | null)?.type),
    issues: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
  });
  message.ack();
}
