import { env } from 'cloudflare:test';
import { vi } from 'vitest';
import type { Channels } from '../../src/channels/registry';
import type { DeliveryResult } from '../../src/channels/types';
import { api } from './api';

export interface QueuedJob {
  queue: 'DELIVERIES' | 'JOBS';
  body: Record<string, unknown>;
  delaySeconds?: number;
}

/**
 * Records (instead of sending) what `fn` puts on both queues, so a test with a controlled clock runs
 * each consumer itself, at the time it chooses — the real consumers would run on the real clock.
 */
export async function captureQueues<T>(fn: () => Promise<T>): Promise<{ result: T; jobs: QueuedJob[] }> {
  const jobs: QueuedJob[] = [];
  const spies = (['DELIVERIES', 'JOBS'] as const).flatMap((queue) => [
    vi.spyOn(env[queue], 'send').mockImplementation(async (body, opts) => {
      jobs.push({ queue, body: body as Record<string, unknown>, delaySeconds: opts?.delaySeconds });
      return undefined as unknown as QueueSendResponse;
    }),
    vi.spyOn(env[queue], 'sendBatch').mockImplementation(async (messages) => {
      for (const m of messages) jobs.push({ queue, body: m.body as Record<string, unknown>, delaySeconds: m.delaySeconds });
      return undefined as unknown as QueueSendBatchResponse;
    }),
  ]);
  try {
    return { result: await fn(), jobs };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

export async function createMessageFor(token: string, body: Record<string, unknown>) {
  const res = await api('POST', '/api/message/create', {
    token,
    json: { delivery_method: 'email', consent: true, content: 'Hello from the past', rules: [], ...body },
  });
  if (res.status !== 201) throw new Error(`create message failed: ${res.status} ${res.text}`);
  return res.data as { id: string; status: string; deliver_at: string };
}

export async function messageRow(id: string) {
  return env.DB.prepare('SELECT * FROM messages WHERE id = ?').bind(id).first<Record<string, any>>();
}

export async function transitionCauses(id: string) {
  const { results } = await env.DB.prepare('SELECT from_status, to_status, cause FROM message_transitions WHERE message_id = ? ORDER BY created_at, rowid')
    .bind(id)
    .all<{ from_status: string | null; to_status: string; cause: string }>();
  return results.map((r) => `${r.from_status ?? '∅'}→${r.to_status}:${r.cause}`);
}

/** Channels whose every send answers from `script` (in order; the last repeats), recording each call. */
export function scriptedChannels(script: DeliveryResult[]): Channels & { calls: { kind: string; to: string; key: string }[] } {
  const calls: { kind: string; to: string; key: string }[] = [];
  let i = 0;
  const next = async (kind: string, to: string, key: string) => {
    calls.push({ kind, to, key });
    return script[Math.min(i++, script.length - 1)]!;
  };
  return {
    calls,
    transports: { email: 'test', sms: 'test', call: 'test', push: 'test' },
    email: (to, m) => next('email', to.email, m.idempotencyKey),
    sms: (to, m) => next('sms', to, m.idempotencyKey),
    call: (to, m) => next('call', to, m.idempotencyKey),
    push: (s, m) => next('push', s.endpoint, m.idempotencyKey),
  };
}
