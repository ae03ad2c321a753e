import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { consumeBatch, JOB_CONCURRENCY } from '../src/queues/consume';

const batchOf = (bodies: unknown[]) =>
  createMessageBatch(
    'afterword-jobs',
    bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts: 1, body })),
  );

describe('the queue consumer parses every body with its schema', () => {
  it('acknowledges (never retries) a body that fails its schema or has an unknown type, and logs the issues without the contents', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const batch = batchOf([
      { type: 'deliver' },
      { type: 'webhook', delivery_id: 42 },
      { type: 'missed_checkins', user_id: 'u', canary_id: 'c', misses: 0, event_id: 'e', deadline: 'd', fired_at: 'f' },
      { type: 'no-such-job', secret: 'hunter2' },
      'not even an object',
    ]);
    const ctx = createExecutionContext();
    await consumeBatch(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(result.retryMessages).toEqual([]);
    const lines = logged.mock.calls.map((c) => JSON.parse(String(c[0])));
    expect(lines.map((l) => l.msg)).toEqual(Array(5).fill('queue message refused by its schema'));
    expect(lines[0].issues).toEqual(['delivery_id: Invalid input: expected string, received undefined']);
    expect(JSON.stringify(lines)).not.toContain('hunter2');
    logged.mockRestore();
  });

  it('hands a valid body to its handler (a deliver job for no such delivery is a no-op, acknowledged)', async () => {
    const batch = batchOf([{ type: 'deliver', delivery_id: crypto.randomUUID() }]);
    const ctx = createExecutionContext();
    await consumeBatch(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['m0']);
  });

  it('settles every job of a delivery larger than the jobs it runs at a time, each exactly once', async () => {
    const n = JOB_CONCURRENCY * 2 + 5;
    const batch = batchOf(Array.from({ length: n }, () => ({ type: 'deliver', delivery_id: crypto.randomUUID() })));
    const ctx = createExecutionContext();
    await consumeBatch(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(Array.from({ length: n }, (_, i) => `m${i}`).sort());
    expect(result.retryMessages).toEqual([]);
  });
});
