import { env } from 'cloudflare:test';
import { vi } from 'vitest';
import { createServiceContext } from '../../src/env';
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
    'SELECT kind, misses, due_at, fired_at, counts_from, emitted_at, cycle_deadline, recorded_by FROM canary_transitions WHERE canary_id = ? ORDER BY kind, misses',
  )
    .bind(canaryId)
    .all<{
      kind: string;
      misses: number;
      due_at: number;
      fired_at: number;
      counts_from: number | null;
      emitted_at: number | null;
      cycle_deadline: number;
      recorded_by: string;
    }>();
  return results;
}
