import { env } from 'cloudflare:test';
import { vi } from 'vitest';
import { createServiceContext } from '../../src/wiring/service-context';
import type { CanaryNoticeJob } from '../../src/contracts/jobs';
import { DEFAULT_NOTIFY_PREFERENCES } from '../../src/contracts/notify';
import { sendCanaryNotice } from '../../src/domains/owner-notices/canary-notices';
import { saveNotifyPreferences } from '../../src/domains/notify/preferences';
import { api } from './api';

/** Creates a canary over the API for a signed-in user. */
export async function createCanaryFor(token: string, body: Record<string, unknown> = { interval_seconds: 3600 }) {
  const res = await api('POST', '/api/canary/create', { token, json: body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.data as { id: string; token: string; last_check_in: string; deadline: string; interval_seconds: number };
}

/** A service context whose clock reads `at` (ms), with the JOBS queue's sends recorded. */
export function servicesAt(at: number) {
  const ctx = createServiceContext(env, () => new Date(at));
  return ctx;
}

/** Records every event sent to the JOBS queue while `fn` runs. */
export async function captureJobs<T>(fn: () => Promise<T>) {
  const sent: unknown[] = [];
  const spy = vi.spyOn(env.JOBS, 'sendBatch').mockImplementation(async (messages) => {
    for (const m of messages) sent.push(m.body);
    return undefined as unknown as QueueSendBatchResponse;
  });
  try {
    const result = await fn();
    return { result, sent };
  } finally {
    spy.mockRestore();
  }
}

export async function transitionsOf(canaryId: string) {
  const { results } = await env.DB.prepare(
    'SELECT kind, misses, due_at, fired_at, counts_from, emitted_at, delivered_at, cycle_deadline, recorded_by FROM canary_transitions WHERE canary_id = ? ORDER BY kind, misses',
  )
    .bind(canaryId)
    .all<{
      kind: string;
      misses: number;
      due_at: number;
      fired_at: number;
      counts_from: number | null;
      emitted_at: number | null;
      delivered_at: number | null;
      cycle_deadline: number;
      recorded_by: string;
    }>();
  return results;
}

/** Quiet hours off (start = end), every other preference at its default: a warning is sent whenever it is due. */
export async function noQuietHours(userId: string) {
  await saveNotifyPreferences(servicesAt(Date.now()), userId, { ...DEFAULT_NOTIFY_PREFERENCES, quiet_hours: { start: '00:00', end: '00:00' } });
}

/**
 * Runs the canary notices among `sent` (jobs captured by captureJobs) through their real JOBS handler at
 * `at`: written, sent on the owner's channels (the local outbox here) and, for a warning, reported back to
 * its canary's object — the warning reaches the owner at `at`. Returns what each notice came to.
 */
export async function deliverNotices(sent: readonly unknown[], at: number) {
  const outcomes: string[] = [];
  for (const job of sent as { type: string }[]) {
    if (job.type === 'canary_notice') outcomes.push(await sendCanaryNotice(servicesAt(at), job as CanaryNoticeJob));
  }
  return outcomes;
}

/** The kinds of canary notice among `sent` (of one canary, when given). */
export const canaryNotices = (sent: readonly unknown[], canaryId?: string) =>
  (sent as { type: string }[])
    .filter((j): j is CanaryNoticeJob => j.type === 'canary_notice' && (!canaryId || (j as CanaryNoticeJob).canary_id === canaryId))
    .map((j) => j.kind);
/** The `missed_checkins` events among `sent` (of one canary, when given). */
export const missedEvents = (sent: readonly unknown[], canaryId?: string) =>
  (sent as { type: string; canary_id?: string }[]).filter((j) => j.type === 'missed_checkins' && (!canaryId || j.canary_id === canaryId));
