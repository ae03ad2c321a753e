import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { processDeadmanSwitches } from '../src/domains/deadman/process-deadman';
import { toBase64 } from '../src/lib/encoding';
import { api, signedInUser } from './helpers/api';
import { capsuleBy } from './helpers/capsules';
import { memorialBy, postOn } from './helpers/memorials';
import { schemaTables } from './helpers/schema';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { guardianOf } from './helpers/guardian';
import { captureQueues, createMessageFor } from './helpers/messages';
import { giveVaultItem, withKeys } from './helpers/vault';
import { endpointFor } from './helpers/webhooks';
import { uploadSample, voiceLike } from './helpers/voice';
import { floatWav } from '../src/contracts/wav';
import { runVoiceTraining } from '../src/domains/voice/training';
import type { VoiceTrainingJob } from '../src/contracts/jobs';
import { deliverMessage } from '../src/domains/messages/delivery/deliver-message';
import { exports } from 'cloudflare:workers';
import { strFromU8, unzipSync } from 'fflate';
import { transitionCauses } from './helpers/messages';

/**
 * Deleting one's account on request (docs/decisions/data-export.md): confirmed with the password, scheduled 7 days
 * ahead and cancelable, then one erasure that leaves nothing of the user in any table of the schema or in
 * R2 — and the people who wrote to them are told.
 */
const DAY = 86_400_000;

/** Every row of every table in which any text column holds `value`, as `table.column`. */
async function rowsMentioning(value: string) {
  const found: string[] = [];
  for (const t of schemaTables) {
    for (const c of t.columns.filter((col) => col.getSQLType() === 'text')) {
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${t.name} WHERE "${c.name}" = ?1`).bind(value).first<{ n: number }>();
      if (row!.n > 0) found.push(`${t.name}.${c.name}`);
    }
  }
  return found;
}

describe('asking for one’s account to be deleted (POST /api/account/delete)', () => {
  it('checks the password alone first (POST /api/account/delete/check): right → ok, wrong → 422, nothing scheduled either way', async () => {
    const owner = await signedInUser();
    const wrong = await api('POST', '/api/account/delete/check', { token: owner.token, json: { password: 'not it at all' } });
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(wrong.data.detail)).toContain('That is not your password');
    const right = await api('POST', '/api/account/delete/check', { token: owner.token, json: { password: owner.password } });
    expect(right).toMatchObject({ status: 200, data: { ok: true } });
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([]);
  });

  it('needs the right password, schedules it 7 days ahead, lists it, tells the owner on every channel; a second ask is 409', async () => {
    const owner = await signedInUser();
    expect((await api('POST', '/api/account/delete', { token: owner.token, json: {} })).status).toBe(422);
    const wrong = await api('POST', '/api/account/delete', { token: owner.token, json: { password: 'not it at all' } });
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(wrong.data.detail)).toContain('That is not your password');
    const before = Date.now();
    const res = await api('POST', '/api/account/delete', { token: owner.token, json: { password: owner.password } });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ type: 'account', reason: 'request', status: 'scheduled' });
    expect(Date.parse(res.data.deletion_date) - before).toBeGreaterThanOrEqual(7 * DAY - 1000);
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([
      expect.objectContaining({ id: res.data.id, reason: 'request' }),
    ]);
    const notice = await env.DB.prepare("SELECT subject FROM owner_notices WHERE user_id = ? AND kind = 'account_deletion_requested'")
      .bind(owner.id)
      .first<{ subject: string }>();
    expect(notice?.subject).toBe('Your Afterword account will be deleted');
    expect((await api('POST', '/api/account/delete', { token: owner.token, json: { password: owner.password } })).status).toBe(409);
  });

  it('is cancelled by its own call (404 the second time), not by a check-in or by cancelling the dead-man switch', async () => {
    const owner = await signedInUser();
    await api('POST', '/api/account/delete', { token: owner.token, json: { password: owner.password } });
    await createCanaryFor(owner.token);
    expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBeLessThan(300);
    await api('POST', '/api/deadman/cancel', { token: owner.token });
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toHaveLength(1);
    const cancelled = await api('POST', '/api/account/delete/cancel', { token: owner.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.data.cancelled).toBe(true);
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([]);
    expect((await api('POST', '/api/account/delete/cancel', { token: owner.token })).status).toBe(404);
  });

  it('after 7 days erases everything of the user — every table of the schema, every R2 object — tells who wrote to them, and keeps everyone else', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    await withKeys(owner);
    await withKeys(friend);
    await createCanaryFor(owner.token);
    await createMessageFor(owner.token, {
      recipient_user_id: friend.id,
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
      audio_base64: toBase64(new Uint8Array([0x4f, 0x67, 0x67, 0x53, ...new Uint8Array(200)])),
    });
    await createMessageFor(friend.token, { recipient_user_id: owner.id, content: 'delivered before', rules: [] });
    await createMessageFor(friend.token, {
      recipient_user_id: owner.id,
      content: 'still waiting',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
    });
    await giveVaultItem(owner, friend, { condition_type: 'death_flag' });
    await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'gone', scopes: ['read:canary'] } });
    await endpointFor(owner, `erase-${crypto.randomUUID()}`);
    await guardianOf(owner, friend);
    await guardianOf(friend, owner);
    const friendMessage = await createMessageFor(friend.token, { recipient_user_id: friend.id, content: 'friend keeps this' });
    // A voice sample and a trained profile.
    await uploadSample(owner.token, floatWav(voiceLike(31, 150, 4), 8000));
    const training = await captureQueues(() => api('POST', '/api/voice/train', { token: owner.token }));
    expect(training.result.status).toBe(202);
    // The training job, whatever else the earlier steps still had on its way to the queues.
    const trainingJob = training.jobs.find((j) => j.body.type === 'voice_training');
    await runVoiceTraining(servicesAt(Date.now()), trainingJob!.body as VoiceTrainingJob);
    // A recorded Message from the Beyond and a persona.
    const beyond = new FormData();
    beyond.append('prompt', 'When you miss me?');
    beyond.append('locked', 'true');
    beyond.append('file', new Blob([floatWav(voiceLike(1, 150, 4), 8000)]), 'a.wav');
    expect((await api('POST', '/api/voice/prompt', { token: owner.token, body: beyond })).status).toBe(201);
    await api('POST', '/api/ai/train-profile', { token: owner.token, json: { persona_text: 'Me', behavior: 'wise', qa: [] } });
    // Community: the owner's anonymous capsule, memorial (with the friend's post), post and candle on the friend's memorial.
    const ownersMemorial = await memorialBy(owner);
    await postOn(ownersMemorial.id, friend);
    await capsuleBy(owner, { is_anonymous: true, memorial_id: ownersMemorial.id });
    const friendsMemorial = await memorialBy(friend);
    const friendsPost = await postOn(friendsMemorial.id, friend);
    await postOn(friendsMemorial.id, owner);
    await api('POST', `/api/memorial/candle/${friendsPost.id}`, { token: owner.token });

    const blobs = await env.DB.prepare(
      `SELECT audio_key AS k FROM messages WHERE sender_id = ?1 AND audio_key IS NOT NULL
       UNION SELECT r2_key FROM vault_assets WHERE owner_id = ?1
       UNION SELECT r2_key FROM voice_samples WHERE owner_id = ?1
       UNION SELECT r2_key FROM voice_prompts WHERE owner_id = ?1`,
    )
      .bind(owner.id)
      .all<{ k: string }>();
    expect(blobs.results.length).toBe(4);

    const asked = await api('POST', '/api/account/delete', { token: owner.token, json: { password: owner.password } });
    const due = Date.parse(asked.data.deletion_date);
    await captureQueues(() => processDeadmanSwitches(servicesAt(due - 60_000)));
    expect(await rowsMentioning(owner.id)).not.toEqual(['scheduled_deletions.user_id']);

    await captureQueues(() => processDeadmanSwitches(servicesAt(due + 1)));
    // The one record left: that this deletion was carried out (no foreign key, by design).
    expect(await rowsMentioning(owner.id)).toEqual(['scheduled_deletions.user_id']);
    // The address survives only in the friend's own records: the invitation they typed it into, and
    // the step saying that guardian resigned (with the account) — theirs, not the deleted user's.
    expect(await rowsMentioning(owner.email)).toEqual(['guardians.email', 'ladder_transitions.detail']);
    const holders = await env.DB.prepare('SELECT owner_id FROM guardians WHERE email = ?1 UNION SELECT owner_id FROM ladder_transitions WHERE detail = ?1')
      .bind(owner.email)
      .all<{ owner_id: string }>();
    expect(holders.results).toEqual([{ owner_id: friend.id }]);
    for (const { k } of blobs.results) expect(await env.BLOBS.head(k), k).toBeNull();

    const told = await env.DB.prepare("SELECT text FROM owner_notices WHERE user_id = ? AND kind = 'recipient_left'").bind(friend.id).all<{ text: string }>();
    expect(told.results).toHaveLength(1);
    expect(told.results[0]!.text).toContain('Your message to them that was not released yet can no longer be delivered');
    expect((await api('GET', `/api/message/${friendMessage.id}`, { token: friend.token })).status).toBe(200);
    // The friend's memorial stays, with their own post only and their post's candles counted without the owner's.
    const kept = await api('GET', `/api/memorial/${friendsMemorial.id}`);
    expect(kept.data.posts).toEqual([expect.objectContaining({ id: friendsPost.id, candle_count: 0 })]);
    expect((await api('GET', `/api/memorial/${ownersMemorial.id}`)).status).toBe(404);
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(401);
  });
});

/** The recipient asks for their account's deletion and the 7 days pass. */
async function deleteAccountOf(user: { token: string; password: string }) {
  const asked = await api('POST', '/api/account/delete', { token: user.token, json: { password: user.password } });
  await captureQueues(() => processDeadmanSwitches(servicesAt(Date.parse(asked.data.deletion_date) + 1)));
}

describe('messages written to someone who deletes their account', () => {
  it('stay with their sender: the unreleased ones cancelled and shown as undeliverable, released ones with their history', async () => {
    const sender = await signedInUser();
    const recipient = await signedInUser();
    const audio = toBase64(new Uint8Array([0x4f, 0x67, 0x67, 0x53, ...new Uint8Array(100)]));
    const waiting = await createMessageFor(sender.token, {
      recipient_user_id: recipient.id,
      content: 'waiting for a rule',
      rules: [{ trigger_type: 'missed_checkins', trigger_value: '3' }],
      audio_base64: audio,
    });
    // Its delivery job is held here and run by the test: the real consumer running it too, late, could write
    // the recipient's outbox copy again after the erasure.
    const { result: delivered } = await captureQueues(() => createMessageFor(sender.token, { recipient_user_id: recipient.id, content: 'delivered before' }));
    const [delivery] = (await env.DB.prepare('SELECT id FROM deliveries WHERE message_id = ?').bind(delivered.id).all<{ id: string }>()).results;
    await captureQueues(() => deliverMessage(servicesAt(Date.now()), delivery!.id));
    expect((await api('GET', `/api/message/${delivered.id}`, { token: sender.token })).data.message.status).toBe('delivered');
    await api('POST', `/api/message/${delivered.id}/read`, { token: recipient.token });
    // Released, its delivery job not run yet (held in the queue).
    const { result: delivering } = await captureQueues(() => createMessageFor(sender.token, { recipient_user_id: recipient.id, content: 'still delivering' }));
    const deliveredHistory = await transitionCauses(delivered.id);

    await deleteAccountOf(recipient);

    const list = (await api('GET', '/api/message/list', { token: sender.token })).data as Record<string, unknown>[];
    const byId = Object.fromEntries(list.map((m) => [m.id, m]));
    expect(byId[waiting.id]).toMatchObject({ status: 'cancelled', undeliverable: 'recipient_left', recipient_user_id: null, delivered: false });
    expect(byId[waiting.id]).not.toHaveProperty('recipient_email');
    expect(byId[delivered.id]).toMatchObject({ status: 'delivered', undeliverable: null, recipient_user_id: null, delivered: true });
    expect(byId[delivering.id]).toMatchObject({ status: 'failed', undeliverable: null, recipient_user_id: null });

    const detail = (await api('GET', `/api/message/${waiting.id}`, { token: sender.token })).data;
    expect(detail.message.content).toBe('waiting for a rule');
    expect(detail.transitions.at(-1)).toMatchObject({ from: 'scheduled', to: 'cancelled', cause: 'recipient_left' });
    expect(detail.transitions.at(-1).detail).toContain('deleted their Afterword account');
    expect(await transitionCauses(delivered.id)).toEqual(deliveredHistory);
    expect(await transitionCauses(delivering.id)).toEqual(['∅→scheduled:created', 'scheduled→releasing:deliver_at', 'releasing→failed:recipient_left']);
    const closed = await env.DB.prepare('SELECT status, last_error FROM deliveries WHERE message_id = ?').bind(delivering.id).first();
    expect(closed).toEqual({ status: 'failed', last_error: 'The recipient deleted their Afterword account.' });
    // The recording is the sender's and stays; nothing of the recipient is kept in the rows, read marker included.
    expect((await api('GET', `/api/message/${waiting.id}/audio`, { token: sender.token })).status).toBe(200);
    expect(await rowsMentioning(recipient.id)).toEqual(['scheduled_deletions.user_id']);
    expect(await env.DB.prepare('SELECT read_at FROM messages WHERE id = ?').bind(delivered.id).first()).toEqual({ read_at: null });
    // It can never be released, by hand either.
    const byHand = await api('POST', `/api/messages/deliver/${waiting.id}`, { token: sender.token });
    expect(byHand.status).toBe(409);
    expect(JSON.stringify(byHand.data)).toContain('This message was cancelled');

    const told = await env.DB.prepare("SELECT text, link FROM owner_notices WHERE user_id = ? AND kind = 'recipient_left'")
      .bind(sender.id)
      .first<{ text: string; link: string }>();
    expect(told?.text).toContain('Your message to them that was not released yet can no longer be delivered: it stays in My Messages, marked undeliverable.');
    expect(told?.link).toMatch(/\/app\/messages$/);

    // The sender's export still holds them, without a recipient.
    const res = await exports.default.fetch(new Request('http://afterword.test/api/legal/export', { headers: { authorization: `Bearer ${sender.token}` } }));
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const sent = JSON.parse(strFromU8(files['data/messages_sent.json']!)) as Record<string, unknown>[];
    expect(sent.find((m) => m.id === waiting.id)).toMatchObject({ status: 'cancelled', recipient_user_id: null });
    expect(sent.filter((m) => m.recipient_user_id === null)).toHaveLength(3);
  });

  it('take a vault file given to them away with them, and tell its giver so', async () => {
    const owner = await signedInUser();
    const heir = await signedInUser();
    await withKeys(owner);
    await withKeys(heir);
    await giveVaultItem(owner, heir, { condition_type: 'death_flag' });
    await deleteAccountOf(heir);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM messages WHERE sender_id = ?').bind(owner.id).first())?.n).toBe(0);
    const told = await env.DB.prepare("SELECT text FROM owner_notices WHERE user_id = ? AND kind = 'recipient_left'").bind(owner.id).first<{ text: string }>();
    expect(told?.text).toContain('The vault file you gave them was removed with their account.');
    expect(told?.text).not.toContain('My Messages');
  });
});
