import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PLAN_IDS, PLAN_LIMITS, type PlanId } from '../src/contracts/plans';
import { api, signedInUser } from './helpers/api';
import { createMessageFor } from './helpers/messages';

/**
 * Every plan's limits at their edge (docs/product.md "Plans and billing"), over REST and tRPC: the last one
 * that fits is accepted, the next is 403 with a detail naming the plan and the plan to upgrade to. The plan is set
 * on the row here; how a plan changes (only by verified provider events) is billing-webhook.test.ts.
 */
const onPlan = (userId: string, plan: PlanId) => env.DB.prepare('UPDATE users SET plan = ? WHERE id = ?').bind(plan, userId).run();
const NEXT: Record<PlanId, string | null> = { free: 'Plus', plus: 'Pro', pro: 'Immortality', immortality: null };

const createCanaryRest = (token: string, name: string) => api('POST', '/api/canary/create', { token, json: { name } });
const createCanaryTrpc = (token: string, name: string) => api('POST', '/api/trpc/canary.create', { token, json: { name } });

/** Four bytes of the WebM magic and four more: a recording the server recognises, 8 bytes long. */
const WEBM = btoa(String.fromCharCode(0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4));
const recording = (recipientId: string) => ({ recipient_user_id: recipientId, content: 'x', delivery_method: 'email', consent: true, audio_base64: WEBM });

describe.each(PLAN_IDS)('the %s plan', (plan) => {
  const limits = PLAN_LIMITS[plan];

  it('allows its canaries and refuses the next with 403 naming the plan and the upgrade (REST and tRPC)', async () => {
    const owner = await signedInUser();
    await onPlan(owner.id, plan);
    const allowed = Number.isFinite(limits.canaries) ? limits.canaries : 5; // "unlimited": more than any finite plan
    for (let i = 0; i < allowed; i++) {
      const res = i % 2 ? await createCanaryTrpc(owner.token, `c${i}`) : await createCanaryRest(owner.token, `c${i}`);
      expect(res.status, `canary ${i + 1} on ${plan}`).toBe(i % 2 ? 200 : 201);
    }
    if (!Number.isFinite(limits.canaries)) return;
    const rest = await createCanaryRest(owner.token, 'one too many');
    expect(rest.status).toBe(403);
    expect(rest.data.detail).toContain(`Your ${limits.name} plan allows ${limits.canaries}`);
    expect(rest.data.detail).toContain(`Upgrade to ${NEXT[plan]}`);
    const trpc = await createCanaryTrpc(owner.token, 'one too many');
    expect(trpc.status).toBe(403);
    expect(trpc.data.error.data.detail).toBe(rest.data.detail);
  });

  it('fills its storage to the byte and refuses one file more with 403 naming the plan and the upgrade (REST and tRPC)', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    await onPlan(owner.id, plan);
    const first = await createMessageFor(owner.token, { recipient_user_id: recipient.id });
    // The meter reached cheaply: an earlier recording takes all but two recordings' bytes.
    await env.DB.prepare('UPDATE messages SET audio_bytes = ? WHERE id = ?')
      .bind(limits.storageBytes - 16, first.id)
      .run();
    expect((await api('POST', '/api/message/create', { token: owner.token, json: recording(recipient.id) })).status).toBe(201);
    expect((await api('POST', '/api/trpc/message.create', { token: owner.token, json: recording(recipient.id) })).status).toBe(200);
    const meter = (await api('GET', '/api/billing', { token: owner.token })).data.meters.find((m: { key: string }) => m.key === 'storage_bytes');
    expect(meter).toEqual({ key: 'storage_bytes', label: 'Storage', used: limits.storageBytes, limit: limits.storageBytes, resets_at: null });

    const rest = await api('POST', '/api/message/create', { token: owner.token, json: recording(recipient.id) });
    expect(rest.status).toBe(403);
    expect(rest.data.detail).toMatch(new RegExp(`^Storage quota exceeded: the ${limits.name} plan includes`));
    expect(rest.data.detail).toContain(NEXT[plan] ? `Upgrade to ${NEXT[plan]} at /pricing.` : 'This is the largest plan.');
    const trpc = await api('POST', '/api/trpc/message.create', { token: owner.token, json: recording(recipient.id) });
    expect(trpc.status).toBe(403);
    expect(trpc.data.error.data.detail).toBe(rest.data.detail);
  });

  it('accepts its last API call of the month and answers the next with 429 (the existing quota, per plan)', async () => {
    const owner = await signedInUser();
    await onPlan(owner.id, plan);
    const created = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'edge', scopes: ['webhook:death-verification'] } });
    expect(created.status).toBe(201);
    const month = new Date().toISOString().slice(0, 7);
    await env.DB.prepare('INSERT INTO api_usage (key_id, user_id, month, count, last_used_at) VALUES (?, ?, ?, ?, ?)')
      .bind(created.data.id, owner.id, month, limits.apiCallsPerMonth - 1, Date.now())
      .run();
    const last = await api('POST', '/api/death-verification/report', { token: created.data.key });
    expect(last.status).toBe(202);
    expect(last.headers.get('x-ratelimit-limit')).toBe(String(limits.apiCallsPerMonth));
    const over = await api('POST', '/api/death-verification/report', { token: created.data.key });
    expect(over.status).toBe(429);
    expect(over.data.detail).toContain(`(${limits.apiCallsPerMonth} calls on your plan)`);
  });

  it('reports its limits on GET /api/billing and the tRPC billing.get alike', async () => {
    const owner = await signedInUser();
    await onPlan(owner.id, plan);
    const rest = await api('GET', '/api/billing', { token: owner.token });
    const trpc = await api('GET', '/api/trpc/billing.get', { token: owner.token });
    expect(trpc.data.result.data).toEqual(rest.data);
    const limit = (key: string) => rest.data.meters.find((m: { key: string }) => m.key === key).limit;
    expect(limit('canaries')).toBe(Number.isFinite(limits.canaries) ? limits.canaries : null);
    expect(limit('storage_bytes')).toBe(limits.storageBytes);
    expect(limit('api_calls')).toBe(limits.apiCallsPerMonth);
    expect(limit('voice_minutes_per_session')).toBe(limits.voiceMinutes);
  });
});

describe('the one storage meter', () => {
  it('sums message audio, attachments, vault files, voice samples, Messages from the Beyond and capsule media, and nobody else’s', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const message = await createMessageFor(owner.token, { recipient_user_id: recipient.id });
    const capsule = crypto.randomUUID();
    const now = Date.now();
    // One power of two per source, so the sum says which were counted.
    await env.DB.batch([
      env.DB.prepare('UPDATE messages SET audio_bytes = 1 WHERE id = ?').bind(message.id),
      env.DB.prepare(
        "INSERT INTO message_attachments (id, message_id, owner_id, r2_key, iv, name, size, created_at) VALUES (?1, ?2, ?3, ?4, 'iv', 'a.bin', ?5, ?6)",
      ).bind(crypto.randomUUID(), message.id, owner.id, `attachments/${message.id}/a`, 2, now),
      // A vault file carried by a message as an attachment counts once, as the vault file.
      env.DB.prepare(
        "INSERT INTO message_attachments (id, message_id, owner_id, r2_key, iv, name, size, created_at) VALUES (?1, ?2, ?3, ?4, 'iv', 'v.bin', ?5, ?6)",
      ).bind(crypto.randomUUID(), message.id, owner.id, `vault/${owner.id}/v`, 4, now),
      env.DB.prepare(
        "INSERT INTO vault_assets (id, owner_id, r2_key, iv, envelope, name, size, consent_at, created_at) VALUES (?1, ?2, ?3, 'iv', 'e', 'v.bin', 8, ?4, ?4)",
      ).bind(crypto.randomUUID(), owner.id, `vault/${owner.id}/v`, now),
      env.DB.prepare(
        "INSERT INTO voice_samples (id, owner_id, r2_key, label, content_type, codec, size, duration_ms, consent_at, created_at) VALUES (?1, ?2, 'voice/s', 'l', 'audio/wav', 'pcm', 16, 1000, ?3, ?3)",
      ).bind(crypto.randomUUID(), owner.id, now),
      env.DB.prepare(
        "INSERT INTO voice_prompts (id, owner_id, prompt, r2_key, content_type, size, duration_ms, locked, created_at) VALUES (?1, ?2, 'p', 'voice/p', 'audio/wav', 32, 1000, 0, ?3)",
      ).bind(crypto.randomUUID(), owner.id, now),
      env.DB.prepare(
        "INSERT INTO capsules (id, author_id, title, theme, is_anonymous, release_at, created_at, updated_at) VALUES (?1, ?2, 't', 'Hope', 0, ?3, ?3, ?3)",
      ).bind(capsule, owner.id, now),
      env.DB.prepare(
        "INSERT INTO capsule_items (id, capsule_id, position, type, data, r2_key, content_type, size) VALUES (?1, ?2, 0, 'audio', '', ?3, 'audio/webm', 64)",
      ).bind(crypto.randomUUID(), capsule, `capsules/${capsule}/a.webm`),
      env.DB.prepare("INSERT INTO capsule_items (id, capsule_id, position, type, data) VALUES (?1, ?2, 1, 'text', ?3)").bind(
        crypto.randomUUID(),
        capsule,
        'y'.repeat(1000),
      ),
    ]);
    const meter = (await api('GET', '/api/billing', { token: owner.token })).data.meters.find((m: { key: string }) => m.key === 'storage_bytes');
    // 1 audio + 2 attachment + 8 vault file + 16 voice sample + 32 Message from the Beyond + 64 capsule media;
    // not 4 (the vault file again) nor the text item.
    expect(meter.used).toBe(123);
    const theirs = (await api('GET', '/api/billing', { token: recipient.token })).data.meters.find((m: { key: string }) => m.key === 'storage_bytes');
    expect(theirs.used).toBe(0);
  });
});

describe('a downgrade', () => {
  it('keeps everything over the new limit and refuses only creating more', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    await onPlan(owner.id, 'pro');
    for (const name of ['a', 'b', 'c', 'd']) expect((await createCanaryRest(owner.token, name)).status).toBe(201);
    const message = await createMessageFor(owner.token, { recipient_user_id: recipient.id });
    await env.DB.prepare('UPDATE messages SET audio_bytes = ? WHERE id = ?')
      .bind(PLAN_LIMITS.plus.storageBytes * 2, message.id)
      .run();

    await onPlan(owner.id, 'plus');
    expect((await api('GET', '/api/canary/list', { token: owner.token })).data).toHaveLength(4);
    expect((await api('GET', `/api/message/${message.id}`, { token: owner.token })).status).toBe(200);
    const meters = (await api('GET', '/api/billing', { token: owner.token })).data.meters;
    expect(meters.find((m: { key: string }) => m.key === 'canaries')).toMatchObject({ used: 4, limit: 3 });
    expect(meters.find((m: { key: string }) => m.key === 'storage_bytes')).toMatchObject({
      used: PLAN_LIMITS.plus.storageBytes * 2,
      limit: PLAN_LIMITS.plus.storageBytes,
    });
    expect((await createCanaryRest(owner.token, 'e')).status).toBe(403);
    expect((await api('POST', '/api/message/create', { token: owner.token, json: recording(recipient.id) })).status).toBe(403);
  });
});
