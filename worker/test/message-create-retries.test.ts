import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { ZCreateMessageInput } from '../src/contracts/messages';
import type { Bindings } from '../src/env';
import { createMessage } from '../src/domains/messages/create-message';
import { CREATE_KEY_REUSED } from '../src/domains/messages/create-retry';
import { createServiceContext } from '../src/wiring/service-context';
import { api, signedInUser } from './helpers/api';
import { messageRow } from './helpers/messages';

/**
 * A create sent again after its answer was lost (docs/decisions/create-retries.md): with the same
 * idempotency_key it answers with the message the first try wrote, and writes no second.
 */
const body = (recipientId: string, key: string, overrides: Record<string, unknown> = {}) => ({
  recipient_user_id: recipientId,
  content: 'If you are reading this, check the blue folder.',
  delivery_method: 'email',
  consent: true,
  rules: [{ trigger_type: 'missed_checkins', trigger_value: 3 }],
  idempotency_key: key,
  ...overrides,
});

const messagesOf = async (senderId: string) =>
  (await env.DB.prepare('SELECT id FROM messages WHERE sender_id = ? ORDER BY created_at').bind(senderId).all<{ id: string }>()).results.map((r) => r.id);

describe('a message created again with the same idempotency_key', () => {
  it('answers the owner with the message the first call wrote, and writes no second', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const key = crypto.randomUUID();
    const first = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key) });
    const again = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key) });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.data.id).toBe(first.data.id);
    expect(await messagesOf(owner.id)).toEqual([first.data.id]);
  });

  it('writes one message when the tries race each other', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key) })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    const ids = await messagesOf(owner.id);
    expect(ids).toHaveLength(1);
    expect(new Set(answers.map((a) => a.data.id))).toEqual(new Set(ids));
  });

  it('writes one message when tries that all looked before any wrote race to the write', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const input = ZCreateMessageInput.parse(body(recipient.id, crypto.randomUUID()));
    // Each try's look for an earlier one runs before any of them writes (their steps interleave in one isolate),
    // so only the key's unique index tells them apart.
    const answers = await Promise.all(Array.from({ length: 4 }, () => createMessage(createServiceContext(env), { id: owner.id } as never, input)));
    const ids = await messagesOf(owner.id);
    expect(ids).toHaveLength(1);
    expect(answers.map((a) => a.id)).toEqual(Array(4).fill(ids[0]));
  });

  it('answers a retry with the message its first call wrote, even after the owner withdrew their messages consent between them', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const key = crypto.randomUUID();
    const first = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key) });
    expect((await api('POST', '/api/legal/consent/messages', { token: owner.token, json: { consent: false } })).status).toBe(200);
    const again = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key) });
    expect(again.status).toBe(201);
    expect(again.data.id).toBe(first.data.id);
    // A new message is still refused while the consent is withdrawn.
    expect((await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, crypto.randomUUID()) })).status).toBe(403);
  });

  it('refuses the key with another input (409), writing nothing', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const key = crypto.randomUUID();
    const first = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key) });
    const other = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key, { content: 'Another letter' }) });
    expect(other.status).toBe(409);
    expect(other.data).toEqual({ detail: CREATE_KEY_REUSED });
    expect(await messagesOf(owner.id)).toEqual([first.data.id]);
  });

  it("keeps an outsider's message apart when they choose the same key", async () => {
    const [owner, outsider, recipient] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    const key = 'the-same-key-for-both';
    const mine = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, key) });
    const theirs = await api('POST', '/api/message/create', { token: outsider.token, json: body(recipient.id, key) });
    expect(theirs.status).toBe(201);
    expect(theirs.data.id).not.toBe(mine.data.id);
    expect(await messagesOf(outsider.id)).toEqual([theirs.data.id]);
    expect(await messagesOf(owner.id)).toEqual([mine.data.id]);
  });

  it('writes a new message for each call without a key, as before', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const plain = { ...body(recipient.id, 'unused-key'), idempotency_key: undefined };
    await api('POST', '/api/message/create', { token: owner.token, json: plain });
    await api('POST', '/api/message/create', { token: owner.token, json: plain });
    expect(await messagesOf(owner.id)).toHaveLength(2);
  });

  it('refuses a key too short to name a message (422), writing nothing', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const res = await api('POST', '/api/message/create', { token: owner.token, json: body(recipient.id, 'short') });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.data.detail)).toContain('idempotency_key must be 8 to 100 characters');
    expect(await messagesOf(owner.id)).toEqual([]);
  });

  it('sets the release timer a first try that died after its write never set', async () => {
    const [owner, recipient] = await Promise.all([signedInUser(), signedInUser()]);
    const key = crypto.randomUUID();
    const deliverAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const input = body(recipient.id, key, { rules: [], deliver_at: deliverAt });
    // The first try's release object cannot be reached: its message is written, its timer is not.
    const unreachable = {
      ...env,
      RELEASE_CLOCK: {
        ...env.RELEASE_CLOCK,
        idFromName: env.RELEASE_CLOCK.idFromName.bind(env.RELEASE_CLOCK),
        get: () => {
          throw new Error('the release object is out of reach');
        },
      },
    } as unknown as Bindings;
    const first = await createMessage(createServiceContext(unreachable), { id: owner.id } as never, ZCreateMessageInput.parse(input));
    expect((await messageRow(first.id))!.timer_due_at).toBeNull();

    const again = await api('POST', '/api/message/create', { token: owner.token, json: input });
    expect(again.status).toBe(201);
    expect(again.data.id).toBe(first.id);
    expect((await messageRow(first.id))!.timer_due_at).toBe(Date.parse(deliverAt));
    expect(await messagesOf(owner.id)).toEqual([first.id]);
  });
});
