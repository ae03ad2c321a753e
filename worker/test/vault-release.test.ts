import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { birthdayOnOrAfter } from '../src/domains/messages/release/schedule';
import { toBase64 } from '../src/lib/encoding';
import { api, signedInUser } from './helpers/api';
import { confirmDeathDirectly } from './helpers/guardian';
import { captureQueues } from './helpers/messages';
import { servicesAt } from './helpers/canary';
import { envelopeFor, giveVaultItem, vaultForm, withKeys } from './helpers/vault';

/**
 * Vault items are released by the release engine (docs/decisions/vault.md): an exact date at its
 * date, a death-flag item when the death is confirmed, a birthday item on the first such day after it —
 * then, when asked, every year — each exactly once, into the recipient's Inbox with its file.
 */
const at = (iso: string) => new Date(iso).getTime();
const MIN = 60_000;

async function personas() {
  const owner = await signedInUser();
  const recipient = await signedInUser();
  await withKeys(recipient);
  return { owner, recipient };
}

const statusOf = async (messageId: string) =>
  (await env.DB.prepare('SELECT status FROM messages WHERE id = ?').bind(messageId).first<{ status: string }>())?.status;
const messagesOfItem = async (itemId: string) =>
  (
    await env.DB.prepare('SELECT id, status, deliver_at, released_at FROM messages WHERE vault_item_id = ? ORDER BY deliver_at')
      .bind(itemId)
      .all<{ id: string; status: string; deliver_at: number; released_at: number | null }>()
  ).results;
const advance = (messageId: string, when: number) => captureQueues(() => advanceMessage(servicesAt(when), messageId, 'direct'));

describe('when a vault item is released', () => {
  it('an exact-date item is released at its date, not before, into the recipient’s Inbox with the very bytes uploaded', async () => {
    const { owner, recipient } = await personas();
    const bytes = crypto.getRandomValues(new Uint8Array(500));
    const created = await api('POST', '/api/vault/create', {
      token: owner.token,
      body: vaultForm({
        file: new Blob([bytes]),
        iv: toBase64(crypto.getRandomValues(new Uint8Array(12))),
        envelope: envelopeFor(owner.id, recipient.id),
        consent: 'true',
        name: 'photo.jpg',
      }),
    });
    const due = Date.now() + 10 * 86_400_000;
    const item = (
      await api('POST', '/api/vault/assign', {
        token: owner.token,
        json: { asset_id: created.data.asset_id, recipient_user_id: recipient.id, condition_type: 'exact_date', condition_value: new Date(due).toISOString() },
      })
    ).data;

    expect((await advance(item.message_id, due - 1)).result.nextWakeAt?.getTime()).toBe(due);
    expect(await statusOf(item.message_id)).toBe('scheduled');
    expect((await api('GET', '/api/message/inbox', { token: recipient.token })).data).toEqual([]);

    const released = await advance(item.message_id, due);
    expect(released.jobs.filter((j) => j.queue === 'DELIVERIES')).toHaveLength(1);
    const inbox = (await api('GET', '/api/message/inbox', { token: recipient.token })).data;
    expect(inbox.map((m: { id: string }) => m.id)).toEqual([item.message_id]);
    const files = (await api('GET', `/api/message/${item.message_id}/attachments`, { token: recipient.token })).data;
    expect(files).toEqual([expect.objectContaining({ name: 'photo.jpg', size: 500 })]);
    const got = await api('GET', `/api/attachments/${files[0].id}/ciphertext`, { token: recipient.token });
    expect(got.status).toBe(200);
    const raw = await env.BLOBS.get(
      (await env.DB.prepare('SELECT r2_key FROM message_attachments WHERE id = ?').bind(files[0].id).first<{ r2_key: string }>())!.r2_key,
    );
    expect(new Uint8Array(await raw!.arrayBuffer())).toEqual(bytes);
    // The owner's list and the engine's history say the same.
    expect((await api('GET', `/api/vault/${item.id}`, { token: owner.token })).data.status).toBe('releasing');
    const history = (await api('GET', `/api/message/${item.message_id}`, { token: owner.token })).data;
    expect(JSON.stringify(history)).toContain('Created as a vault item (photo.jpg)');
  });

  it('a death-flag item waits for a confirmed death however much time passes, then is released once', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const later = Date.now() + 5 * 365 * 86_400_000;
    expect((await advance(item.message_id, later)).result.nextWakeAt).toBeNull();
    expect(await statusOf(item.message_id)).toBe('scheduled');

    await confirmDeathDirectly(owner.id, later);
    const first = await advance(item.message_id, later + 1);
    expect(first.jobs.filter((j) => j.queue === 'DELIVERIES')).toHaveLength(1);
    // A repeated alarm, a second confirmation job: nothing more.
    const again = await advance(item.message_id, later + 2);
    expect(again.jobs.filter((j) => j.queue === 'DELIVERIES')).toHaveLength(0);
    expect((await messagesOfItem(item.id)).map((m) => m.released_at != null)).toEqual([true]);
  });

  it('a birthday item on 29 February arrives on 28 February in a year without one, at 09:00 UTC, after the death', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'recipient_birthday', condition_value: '02-29' });
    const death = at('2027-01-10T12:00:00Z');
    await confirmDeathDirectly(owner.id, death);
    expect((await advance(item.message_id, death + MIN)).result.nextWakeAt?.toISOString()).toBe('2027-02-28T09:00:00.000Z');
    expect(await statusOf(item.message_id)).toBe('scheduled');
    await advance(item.message_id, at('2027-02-28T09:00:00Z'));
    expect(await statusOf(item.message_id)).toBe('releasing');
    // Not yearly: nothing is left for next year.
    expect(await messagesOfItem(item.id)).toHaveLength(1);
  });

  it('a yearly birthday item starts next year’s exactly once per release, and arrives on 29 February in a leap year', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'recipient_birthday', condition_value: '02-29', every_year: true });
    await confirmDeathDirectly(owner.id, at('2027-01-10T12:00:00Z'));
    await advance(item.message_id, at('2027-02-28T09:00:00Z'));
    // The same alarm again, and the reconciler's pass: the release happened once, so one next year.
    await advance(item.message_id, at('2027-02-28T09:00:01Z'));
    await advance(item.message_id, at('2027-02-28T10:00:00Z'));
    const [first, second] = await messagesOfItem(item.id);
    expect(await messagesOfItem(item.id)).toHaveLength(2);
    expect(first!.released_at).not.toBeNull();
    expect(second).toMatchObject({ status: 'scheduled', released_at: null, deliver_at: at('2027-03-01T00:00:00Z') });
    expect((await advance(second!.id, at('2027-03-01T00:00:00Z'))).result.nextWakeAt?.toISOString()).toBe('2028-02-29T09:00:00.000Z');
    await advance(second!.id, at('2028-02-29T09:00:00Z'));
    const all = await messagesOfItem(item.id);
    expect(all.map((m) => m.released_at != null)).toEqual([true, true, false]);
    expect(all[2]!.deliver_at).toBe(at('2028-03-01T00:00:00Z'));
    // The file travels with every year's copy; it is stored (and counted) once.
    const files = await env.DB.prepare('SELECT DISTINCT r2_key FROM message_attachments WHERE message_id IN (SELECT id FROM messages WHERE vault_item_id = ?)')
      .bind(item.id)
      .all();
    expect(files.results).toHaveLength(1);
    // The owner's list shows the latest year's state and the last release.
    expect((await api('GET', `/api/vault/${item.id}`, { token: owner.token })).data).toMatchObject({
      status: 'scheduled',
      released_at: '2028-02-29T09:00:00.000Z',
    });
  });
});

describe('the first birthday after a confirmed death (birthdayOnOrAfter)', () => {
  it('is later that same day when the death is confirmed on the birthday itself', () => {
    expect(new Date(birthdayOnOrAfter('05-14', at('2027-05-14T06:00:00Z'))).toISOString()).toBe('2027-05-14T09:00:00.000Z');
    expect(new Date(birthdayOnOrAfter('05-14', at('2027-05-14T15:30:00Z'))).toISOString()).toBe('2027-05-14T15:30:00.000Z');
  });

  it('is next year’s when the birthday has passed', () => {
    expect(new Date(birthdayOnOrAfter('05-14', at('2027-05-15T00:00:00Z'))).toISOString()).toBe('2028-05-14T09:00:00.000Z');
    expect(new Date(birthdayOnOrAfter('01-01', at('2027-12-31T23:59:00Z'))).toISOString()).toBe('2028-01-01T09:00:00.000Z');
  });

  it('keeps 29 February for leap years, and 28 February otherwise (2100 is not leap)', () => {
    expect(new Date(birthdayOnOrAfter('02-29', at('2028-01-01T00:00:00Z'))).toISOString()).toBe('2028-02-29T09:00:00.000Z');
    expect(new Date(birthdayOnOrAfter('02-29', at('2100-01-01T00:00:00Z'))).toISOString()).toBe('2100-02-28T09:00:00.000Z');
    expect(new Date(birthdayOnOrAfter('02-29', at('2000-01-01T00:00:00Z'))).toISOString()).toBe('2000-02-29T09:00:00.000Z');
  });
});
