import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { API_SCOPES, type ApiScope } from '../src/contracts/developer';
import { NO_CANARY_TO_SIMULATE, SIMULATE_NEEDS_SANDBOX_KEY } from '../src/domains/webhooks/simulate-missed-checkins';
import { keyMissingScope } from '../src/wiring/api-key-policy';
import { consumeBatch } from '../src/queues/consume';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor } from './helpers/canary';
import { captureQueues, createMessageFor, messageRow } from './helpers/messages';
import { endpointFor, received, webhookJobs } from './helpers/webhooks';

/**
 * Sandbox keys (docs/decisions/webhooks.md): POST /api/sandbox/missed-checkins lets an `afw_test_` key make
 * the event its canary would send, marked `sandbox: true`, to the owner's endpoints — and nothing else
 * happens.
 */
async function keyFor(token: string, opts: { sandbox: boolean; scopes?: ApiScope[] }) {
  const res = await api('POST', '/api/developer/keys', {
    token,
    json: { name: 'sandbox test', scopes: opts.scopes ?? ['read:canary'], sandbox: opts.sandbox },
  });
  expect(res.status).toBe(201);
  return res.data.key as string;
}

/** Everything a real miss would touch besides the webhook: the canary's record, releases, notices, channels. */
async function sideEffects(userId: string) {
  const count = async (sql: string) => (await env.DB.prepare(sql).bind(userId).first<{ n: number }>())!.n;
  return {
    transitions: await count('SELECT count(*) AS n FROM canary_transitions WHERE user_id = ?'),
    notices: await count('SELECT count(*) AS n FROM owner_notices WHERE user_id = ?'),
    deliveries: await count('SELECT count(*) AS n FROM deliveries WHERE message_id IN (SELECT id FROM messages WHERE sender_id = ?)'),
    outbox: (await env.DB.prepare('SELECT count(*) AS n FROM outbox_messages').first<{ n: number }>())!.n,
  };
}

const simulate = (token: string, json: unknown = {}) => api('POST', '/api/sandbox/missed-checkins', { token, json });

describe('POST /api/sandbox/missed-checkins', () => {
  it('a sandbox key sends its canary’s missed_checkins event, marked sandbox, signed and verified — and nothing else happens', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    const hook = await endpointFor(owner, 'sandbox-sim');
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    // A message a real first miss would arm.
    const message = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 1 }],
    });
    const key = await keyFor(owner.token, { sandbox: true });
    const before = await sideEffects(owner.id);
    const messageBefore = await messageRow(message.id);

    const { result: res, jobs } = await captureQueues(() => simulate(key));
    expect(res.status, res.text).toBe(202);
    expect(res.data).toEqual({
      event_id: expect.stringMatching(/^sandbox:[0-9a-f-]{36}$/),
      canary_id: canary.id,
      misses: 1,
      deadline: canary.deadline,
      sandbox: true,
      deliveries: 1,
    });
    // Only the webhook delivery was queued: no JOBS (no release, no notice).
    expect(jobs.map((j) => j.queue)).toEqual(['DELIVERIES']);

    const batch = createMessageBatch(
      'afterword-deliveries',
      webhookJobs(jobs).map((j, i) => ({ id: `s${i}`, timestamp: new Date(), attempts: 1, body: j.body })),
    );
    await consumeBatch(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual(['s0']);
    const [got, ...more] = await received('sandbox-sim');
    expect(more).toEqual([]);
    expect(got!.verified, got!.verifyError ?? '').toBe(true);
    expect(JSON.parse(got!.body)).toEqual({
      type: 'missed_checkins',
      timestamp: expect.any(String),
      data: { user_id: owner.id, event: 'missed_checkins', canary_id: canary.id, misses: 1, deadline: canary.deadline, sandbox: true },
    });
    // Logged like any attempt, on the owner's Developer page.
    const attempts = await api('GET', `/api/developer/webhooks/${hook.id}/attempts`, { token: owner.token });
    expect(attempts.data).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, success: true, origin: 'sandbox' })]);

    expect(await sideEffects(owner.id)).toEqual(before);
    // The message a real miss would arm is as it was.
    expect(await messageRow(message.id)).toEqual(messageBefore);
    const status = await api('GET', '/api/canary/status', { token: owner.token });
    expect(status.data).toMatchObject({ missed: false, misses: 0, canary_id: canary.id });
  });

  it('names a canary with canary_id; another person’s canary or none at all is 404', async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    // Two canaries need the Plus plan.
    await env.DB.prepare("UPDATE users SET plan = 'plus' WHERE id = ?").bind(owner.id).run();
    await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const second = await createCanaryFor(owner.token, { interval_seconds: 7200 });
    const theirs = await createCanaryFor(stranger.token, { interval_seconds: 3600 });
    const key = await keyFor(owner.token, { sandbox: true });
    const named = await captureQueues(() => simulate(key, { canary_id: second.id }));
    expect(named.result.status).toBe(202);
    expect(named.result.data).toMatchObject({ canary_id: second.id, deadline: second.deadline, deliveries: 0 });

    const foreign = await simulate(key, { canary_id: theirs.id });
    expect(foreign.status).toBe(404);
    expect(foreign.data.detail).toBe('Canary not found');

    const lonely = await signedInUser();
    const none = await simulate(await keyFor(lonely.token, { sandbox: true }));
    expect(none.status).toBe(404);
    expect(none.data.detail).toBe(NO_CANARY_TO_SIMULATE);
  });

  it('refuses live keys, sessions, keys without read:canary and bad bodies, sending nothing', async () => {
    const owner = await signedInUser();
    await endpointFor(owner, 'sandbox-refused');
    await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const { jobs } = await captureQueues(async () => {
      const live = await simulate(await keyFor(owner.token, { sandbox: false }));
      expect(live.status).toBe(403);
      expect(live.data.detail).toBe(SIMULATE_NEEDS_SANDBOX_KEY);
      const session = await simulate(owner.token);
      expect(session.status).toBe(403);
      expect(session.data.detail).toBe(SIMULATE_NEEDS_SANDBOX_KEY);
      const unscoped = await simulate(await keyFor(owner.token, { sandbox: true, scopes: API_SCOPES.filter((s) => s !== 'read:canary') }));
      expect(unscoped.status).toBe(403);
      expect(unscoped.data.detail).toBe(keyMissingScope('read:canary'));
      const sandbox = await keyFor(owner.token, { sandbox: true });
      const badId = await simulate(sandbox, { canary_id: 'nope' });
      expect(badId.status).toBe(422);
      const unknownField = await simulate(sandbox, { misses: 9 });
      expect(unknownField.status).toBe(422);
      expect((await api('POST', '/api/sandbox/missed-checkins')).status).toBe(401);
    });
    expect(jobs).toEqual([]);
    expect(
      (await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM webhooks WHERE user_id = ?)')
        .bind(owner.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
  });
});
