import { env } from 'cloudflare:test';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { VAULT_CREATE_MAX_BODY_BYTES } from '../src/contracts/vault';
import { toBase64 } from '../src/lib/encoding';
import { deleteAccount } from '../src/domains/account/delete-account';
import { sweepUnassignedVaultFiles } from '../src/domains/vault/sweep-unassigned';
import { api, signedInUser } from './helpers/api';
import { servicesAt } from './helpers/canary';
import { envelopeFor, giveVaultItem, uploadVaultFile, vaultForm, cipherBlob, withKeys } from './helpers/vault';

/**
 * The vault's API (docs/decisions/vault.md): storing an encrypted file, giving it to someone under a
 * condition, listing, deleting, the QR code and the public claim lookup. Releases are in vault-release.
 */
const DAY = 86_400_000;
const iv = () => toBase64(crypto.getRandomValues(new Uint8Array(12)));

async function personas() {
  const owner = await signedInUser();
  const recipient = await signedInUser();
  const outsider = await signedInUser();
  await withKeys(recipient);
  for (const [person, name] of [
    [owner, 'Ada Owner'],
    [recipient, 'Rita Recipient'],
  ] as const)
    await env.DB.prepare('UPDATE users SET display_name = ? WHERE id = ?').bind(name, person.id).run();
  return { owner, recipient, outsider };
}

const detailOf = (res: { data: { detail: unknown } }) => JSON.stringify(res.data.detail);

describe('storing a vault file (POST /api/vault/create)', () => {
  it('stores the ciphertext in R2 and answers its asset id and size', async () => {
    const { owner, recipient } = await personas();
    const bytes = crypto.getRandomValues(new Uint8Array(300));
    const res = await api('POST', '/api/vault/create', {
      token: owner.token,
      body: vaultForm({
        file: new Blob([bytes]),
        iv: iv(),
        envelope: envelopeFor(owner.id, recipient.id),
        consent: 'true',
        legal_note: 'For Rita only',
        name: 'will.pdf',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ size: 300, name: 'will.pdf', legal_note: 'For Rita only', assigned: false });
    const row = await env.DB.prepare('SELECT r2_key FROM vault_assets WHERE id = ?').bind(res.data.asset_id).first<{ r2_key: string }>();
    const stored = await env.BLOBS.get(row!.r2_key);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);
  });

  it('refuses without consent, without a file, without an iv or with an envelope that has no key for the owner, storing nothing', async () => {
    const { owner, recipient } = await personas();
    const good = { file: cipherBlob(), iv: iv(), envelope: envelopeFor(owner.id, recipient.id), consent: 'true' };
    const cases: [Record<string, string | Blob | undefined>, string][] = [
      [{ ...good, consent: undefined }, 'consent must be true'],
      [{ ...good, consent: 'false' }, 'consent must be true'],
      [{ ...good, file: undefined }, 'file is required'],
      [{ ...good, file: 'not a file' }, 'file must be a file part'],
      [{ ...good, iv: undefined }, 'iv is required'],
      [{ ...good, iv: 'AAAA' }, 'iv must be base64'],
      [{ ...good, envelope: '{"v":1}' }, 'envelope is not a v1 envelope'],
      [{ ...good, envelope: envelopeFor(recipient.id) }, 'The envelope has no key for you'],
      [{ ...good, file: cipherBlob(8) }, 'file must be at least 16 bytes'],
    ];
    for (const [fields, says] of cases) {
      const res = await api('POST', '/api/vault/create', { token: owner.token, body: vaultForm(fields) });
      expect(res.status, says).toBe(422);
      expect(detailOf(res), says).toContain(says);
    }
    expect((await env.DB.prepare('SELECT count(*) AS n FROM vault_assets WHERE owner_id = ?').bind(owner.id).first<{ n: number }>())!.n).toBe(0);
  });

  it('refuses a body larger than the limit from its declared length, before reading it (413)', async () => {
    const { owner } = await personas();
    const res = await api('POST', '/api/vault/create', {
      token: owner.token,
      body: 'x',
      headers: { 'content-type': 'multipart/form-data; boundary=abc', 'content-length': String(VAULT_CREATE_MAX_BODY_BYTES + 1) },
    });
    expect(res.status).toBe(413);
    expect(res.data.detail).toMatch(/larger than/);
  });

  it("refuses a file past the plan's storage with 403 and the upgrade hint, and keeps nothing", async () => {
    const { owner, recipient } = await personas();
    // 1 GB of the Free plan already used by an earlier file.
    await env.DB.prepare(
      "INSERT INTO vault_assets (id, owner_id, r2_key, iv, envelope, name, size, consent_at, created_at) VALUES (?, ?, 'vault/none', 'x', '{}', 'big', 999999900, 0, 0)",
    )
      .bind(crypto.randomUUID(), owner.id)
      .run();
    const res = await api('POST', '/api/vault/create', {
      token: owner.token,
      body: vaultForm({ file: cipherBlob(200), iv: iv(), envelope: envelopeFor(owner.id, recipient.id), consent: 'true' }),
    });
    expect(res.status).toBe(403);
    expect(res.data.detail).toMatch(/Storage quota exceeded: the Free plan includes 1 GB.*Upgrade to Plus/);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM vault_assets WHERE owner_id = ?').bind(owner.id).first<{ n: number }>())!.n).toBe(1);
  });

  it('counts a vault file once against storage, also after it is given to someone', async () => {
    const { owner, recipient } = await personas();
    const before = (await api('GET', '/api/profile/storage', { token: owner.token })).data.used_bytes;
    const asset = await uploadVaultFile(owner, [recipient.id]);
    await api('POST', '/api/vault/assign', {
      token: owner.token,
      json: { asset_id: asset.asset_id, recipient_user_id: recipient.id, condition_type: 'death_flag' },
    });
    expect((await api('GET', '/api/profile/storage', { token: owner.token })).data.used_bytes).toBe(before + asset.size);
  });

  it('is open to an API key with create:vault, and closed to a sandbox key', async () => {
    const { owner, recipient } = await personas();
    const live = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'executor', scopes: ['create:vault'] } });
    const sandbox = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'try', scopes: ['create:vault'], sandbox: true } });
    const form = () => vaultForm({ file: cipherBlob(), iv: iv(), envelope: envelopeFor(owner.id, recipient.id), consent: 'true' });
    const byKey = await api('POST', '/api/vault/create', { token: live.data.key, body: form() });
    expect(byKey.status).toBe(201);
    const assigned = await api('POST', '/api/vault/assign', {
      token: live.data.key,
      json: { asset_id: byKey.data.asset_id, recipient_user_id: recipient.id, condition_type: 'death_flag' },
    });
    expect(assigned.status).toBe(201);
    const bySandbox = await api('POST', '/api/vault/create', { token: sandbox.data.key, body: form() });
    expect(bySandbox.status).toBe(403);
    expect(bySandbox.data.detail).toMatch(/Sandbox keys cannot/);
  });
});

describe('the keys a file is sealed for (GET /api/vault/sealing-keys)', () => {
  const sealingKeys = (token: string, recipientId: string) => api('GET', `/api/vault/sealing-keys?recipient_user_id=${recipientId}`, { token });

  it("gives an executor's system holding only a create:vault key the owner's and the recipient's public keys, each under its kid", async () => {
    const { owner, recipient } = await personas();
    await withKeys(owner);
    const key = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'executor', scopes: ['create:vault'] } });
    const res = await sealingKeys(key.data.key, recipient.id.toUpperCase());
    expect(res.status).toBe(200);
    const stored = async (id: string) =>
      JSON.parse((await env.DB.prepare('SELECT public_key FROM user_keys WHERE user_id = ?').bind(id).first<{ public_key: string }>())!.public_key);
    expect(res.data).toEqual({
      owner: { user_id: owner.id, public_key: await stored(owner.id) },
      recipient: { user_id: recipient.id, public_key: await stored(recipient.id) },
    });
  });

  it('says the owner must make keys first (409), and that a recipient without keys or no such user cannot be sealed for (404)', async () => {
    const { owner, recipient, outsider } = await personas();
    const noOwnKeys = await sealingKeys(owner.token, recipient.id);
    expect(noOwnKeys.status).toBe(409);
    expect(noOwnKeys.data.detail).toMatch(/You have no encryption keys yet/);
    await withKeys(owner);
    for (const id of [outsider.id, crypto.randomUUID()]) {
      const res = await sealingKeys(owner.token, id);
      expect(res.status).toBe(404);
      expect(res.data.detail).toMatch(/has no encryption keys \(or does not exist\)/);
    }
    expect((await sealingKeys(owner.token, 'not-a-user')).status).toBe(422);
  });

  it('is closed to a key without create:vault and to a sandbox key', async () => {
    const { owner, recipient } = await personas();
    await withKeys(owner);
    const reader = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'reader', scopes: ['read:canary'] } });
    const sandbox = await api('POST', '/api/developer/keys', { token: owner.token, json: { name: 'try', scopes: ['create:vault'], sandbox: true } });
    expect((await sealingKeys(reader.data.key, recipient.id)).status).toBe(403);
    const bySandbox = await sealingKeys(sandbox.data.key, recipient.id);
    expect(bySandbox.status).toBe(403);
    expect(bySandbox.data.detail).toMatch(/Sandbox keys cannot/);
  });
});

describe('giving a file to someone (POST /api/vault/assign)', () => {
  it('answers the item with its status, condition and QR code link for each condition type', async () => {
    const { owner, recipient } = await personas();
    const date = new Date(Date.now() + 30 * DAY).toISOString();
    const exact = await giveVaultItem(owner, recipient, { condition_type: 'exact_date', condition_value: date });
    expect(exact).toMatchObject({
      condition_type: 'exact_date',
      condition_value: date,
      status: 'scheduled',
      recipient_user_id: recipient.id,
      recipient_name: 'Rita Recipient',
    });
    expect(exact.qr_code_url).toBe(`${exact.claim_url.replace('/claim/', '/api/vault/claim/')}/qr`);
    expect(exact.claim_url).toMatch(/\/claim\/[A-Za-z0-9_-]{32}$/);
    const death = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    expect(death).toMatchObject({ condition_value: null, condition_text: 'When my death is confirmed' });
    const birthday = await giveVaultItem(owner, recipient, { condition_type: 'recipient_birthday', condition_value: '1990-07-14', every_year: true });
    expect(birthday).toMatchObject({ condition_value: '07-14', every_year: true });
    expect((birthday as unknown as { condition_text: string }).condition_text).toBe('On their birthday, 14 July, after my death is confirmed, then every year');
  });

  it('stores a birthday as month-day only: the year is never kept', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'recipient_birthday', condition_value: '1984-02-29' });
    const row = await env.DB.prepare('SELECT condition_value FROM vault_items WHERE id = ?').bind(item.id).first<{ condition_value: string }>();
    expect(row!.condition_value).toBe('02-29');
    const message = await env.DB.prepare('SELECT rules FROM messages WHERE id = ?').bind(item.message_id).first<{ rules: string }>();
    expect(message!.rules).not.toContain('1984');
  });

  it('refuses bad conditions with 422 and a detail, and leaves the file ungiven', async () => {
    const { owner, recipient } = await personas();
    const asset = await uploadVaultFile(owner, [recipient.id]);
    const base = { asset_id: asset.asset_id, recipient_user_id: recipient.id };
    const cases: [Record<string, unknown>, string][] = [
      [{ condition_type: 'someday' }, 'condition_type must be one of recipient_birthday, exact_date, death_flag'],
      [{ condition_type: 'recipient_birthday', condition_value: '13-01' }, 'month-day (MM-DD)'],
      [{ condition_type: 'recipient_birthday', condition_value: '02-30' }, 'month-day (MM-DD)'],
      [{ condition_type: 'recipient_birthday' }, 'month-day (MM-DD)'],
      [{ condition_type: 'exact_date', condition_value: 'next week' }, 'ISO date'],
      [{ condition_type: 'exact_date', condition_value: new Date(Date.now() - DAY).toISOString() }, 'must be in the future'],
      [{ condition_type: 'death_flag', condition_value: '2030-01-01' }, 'must be empty for death_flag'],
      [{ condition_type: 'death_flag', every_year: true }, 'every_year is only for recipient_birthday'],
      [{ condition_type: 'death_flag', recipient_user_id: owner.id }, 'recipient_user_id is you'],
      [{ condition_type: 'death_flag', recipient_user_id: 'nobody' }, 'recipient_user_id must be a user id'],
    ];
    for (const [body, says] of cases) {
      const res = await api('POST', '/api/vault/assign', { token: owner.token, json: { ...base, ...body } });
      expect(res.status, says).toBe(422);
      expect(detailOf(res), says).toContain(says);
    }
    expect((await api('GET', '/api/vault/list', { token: owner.token })).data).toEqual([]);
  });

  it('is 404 for an unknown recipient or another person’s file, 422 when the recipient has no keys or no key in the envelope, 409 the second time', async () => {
    const { owner, recipient, outsider } = await personas();
    const asset = await uploadVaultFile(owner, [recipient.id]);
    const give = (token: string, body: Record<string, unknown>) =>
      api('POST', '/api/vault/assign', { token, json: { asset_id: asset.asset_id, recipient_user_id: recipient.id, condition_type: 'death_flag', ...body } });
    expect((await give(owner.token, { recipient_user_id: crypto.randomUUID() })).status).toBe(404);
    expect((await give(outsider.token, {})).status).toBe(404);
    const noKeys = await give(owner.token, { recipient_user_id: outsider.id });
    expect(noKeys.status).toBe(422);
    expect(detailOf(noKeys)).toContain('has not set up encryption keys');
    await withKeys(outsider);
    const notSealed = await give(owner.token, { recipient_user_id: outsider.id });
    expect(notSealed.status).toBe(422);
    expect(detailOf(notSealed)).toContain('no key for the recipient');
    expect((await give(owner.token, {})).status).toBe(201);
    expect((await give(owner.token, {})).status).toBe(409);
  });

  it('lets only one of two simultaneous assigns of one file through', async () => {
    const { owner, recipient } = await personas();
    const asset = await uploadVaultFile(owner, [recipient.id]);
    const body = { asset_id: asset.asset_id, recipient_user_id: recipient.id, condition_type: 'death_flag' };
    const results = await Promise.all([1, 2, 3].map(() => api('POST', '/api/vault/assign', { token: owner.token, json: body })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM messages WHERE sender_id = ?').bind(owner.id).first<{ n: number }>())!.n).toBe(1);
  });

  it('keeps vault items out of My Messages but counts them in the ladder’s summary', async () => {
    const { owner, recipient } = await personas();
    await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    expect((await api('GET', '/api/message/list', { token: owner.token })).data).toEqual([]);
    const ladder = await api('GET', '/api/guardian/ladder', { token: owner.token });
    expect(ladder.data.would_release).toEqual({ messages: 0, vault_items: 1, people: 1 });
  });
});

describe('listing, reading and deleting items', () => {
  it('lists the owner’s items newest first; an outsider gets 404 for every one of them', async () => {
    const { owner, recipient, outsider } = await personas();
    const first = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const second = await giveVaultItem(owner, recipient, { condition_type: 'recipient_birthday', condition_value: '03-01' });
    const list = await api('GET', '/api/vault/list', { token: owner.token });
    expect(list.data.map((i: { id: string }) => i.id)).toEqual([second.id, first.id]);
    expect((await api('GET', '/api/vault/list', { token: outsider.token })).data).toEqual([]);
    expect((await api('GET', `/api/vault/${first.id}`, { token: owner.token })).data).toMatchObject({ id: first.id, status: 'scheduled' });
    for (const [method, path] of [
      ['GET', `/api/vault/${first.id}`],
      ['DELETE', `/api/vault/${first.id}`],
    ] as const) {
      expect((await api(method, path, { token: outsider.token })).status, `${method} ${path}`).toBe(404);
      expect((await api(method, path, { token: recipient.token })).status, `${method} ${path} by the recipient`).toBe(404);
    }
  });

  it('deletes an item before release with its file in R2 and its pending release', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const { r2_key } = (await env.DB.prepare('SELECT a.r2_key FROM vault_items i JOIN vault_assets a ON a.id = i.asset_id WHERE i.id = ?')
      .bind(item.id)
      .first<{ r2_key: string }>())!;
    const res = await api('DELETE', `/api/vault/${item.id}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(await env.BLOBS.head(r2_key)).toBeNull();
    expect(await env.DB.prepare('SELECT id FROM messages WHERE id = ?').bind(item.message_id).first()).toBeNull();
    expect((await api('GET', `/api/vault/${item.id}`, { token: owner.token })).status).toBe(404);
    expect((await api('GET', '/api/profile/storage', { token: owner.token })).data.used_bytes).toBe(0);
  });

  it('refuses to delete a released item (409) and keeps it', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    await env.DB.prepare('UPDATE messages SET released_at = ?, status = ? WHERE id = ?').bind(Date.now(), 'delivered', item.message_id).run();
    const res = await api('DELETE', `/api/vault/${item.id}`, { token: owner.token });
    expect(res.status).toBe(409);
    expect((await api('GET', `/api/vault/${item.id}`, { token: owner.token })).data.status).toBe('delivered');
  });
});

/** Draws the SVG's modules (uqr writes each as `M x,y h10v10h-10z`) into RGBA pixels for jsQR. */
function rasterize(svg: string, scale = 0.4) {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const px = Math.round(size * scale);
  const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+),(\d+)h10v10h-10z/g)) {
    for (let dy = 0; dy < 10 * scale; dy++)
      for (let dx = 0; dx < 10 * scale; dx++) {
        const i = ((Math.round(Number(y) * scale) + dy) * px + Math.round(Number(x) * scale) + dx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
  }
  return { rgba, px };
}

describe('the QR code and the claim link', () => {
  it('serves an SVG QR code, to anyone holding the link like the link itself, that decodes to the recipient’s claim link', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const res = await api('GET', new URL(item.qr_code_url).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    const { rgba, px } = rasterize(res.text);
    expect(jsQR(rgba, px, px)?.data).toBe(item.claim_url);
  });

  it('tells a visitor only that something waits, the recipient from whom, and after release which Inbox message to open', async () => {
    const { owner, recipient, outsider } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const path = `/api/vault/claim/${item.claim_url.split('/claim/')[1]}`;
    expect((await api('GET', path)).data).toEqual({ state: 'waiting', for_you: null, from_name: null, message_id: null });
    expect((await api('GET', path, { token: outsider.token })).data).toEqual({ state: 'waiting', for_you: false, from_name: null, message_id: null });
    expect((await api('GET', path, { token: recipient.token })).data).toEqual({ state: 'waiting', for_you: true, from_name: 'Ada Owner', message_id: null });
    await env.DB.prepare('UPDATE messages SET released_at = ?, status = ? WHERE id = ?').bind(Date.now(), 'delivered', item.message_id).run();
    expect((await api('GET', path, { token: recipient.token })).data).toMatchObject({ state: 'released', message_id: item.message_id });
    expect((await api('GET', path)).data).toMatchObject({ state: 'released', from_name: null, message_id: null });
  });

  it('is 404 for a link that never existed, a malformed one, and one whose item was deleted', async () => {
    const { owner, recipient } = await personas();
    const item = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const token = item.claim_url.split('/claim/')[1];
    expect((await api('GET', `/api/vault/claim/${'A'.repeat(32)}`)).status).toBe(404);
    expect((await api('GET', '/api/vault/claim/short')).status).toBe(404);
    await api('DELETE', `/api/vault/${item.id}`, { token: owner.token });
    expect((await api('GET', `/api/vault/claim/${token}`)).status).toBe(404);
    expect((await api('GET', `/api/vault/claim/${token}/qr`)).status).toBe(404);
  });
});

describe('account deletion', () => {
  it('removes the owner’s vault files from R2, and a file given to a deleted recipient with them', async () => {
    const { owner, recipient } = await personas();
    const mine = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const keyOf = async (itemId: string) =>
      (await env.DB.prepare('SELECT a.r2_key FROM vault_items i JOIN vault_assets a ON a.id = i.asset_id WHERE i.id = ?')
        .bind(itemId)
        .first<{ r2_key: string }>())!.r2_key;
    const key = await keyOf(mine.id);
    await deleteAccount(servicesAt(Date.now()), recipient.id);
    expect(await env.BLOBS.head(key)).toBeNull();
    expect(await env.DB.prepare('SELECT id FROM vault_assets WHERE owner_id = ?').bind(owner.id).first()).toBeNull();
    expect((await api('GET', '/api/profile/storage', { token: owner.token })).data.used_bytes).toBe(0);
  });
});

describe('abandoned uploads', () => {
  it('removes a file never given to anyone a day after its upload, with its bytes, and keeps given and recent ones', async () => {
    const { owner, recipient } = await personas();
    const abandoned = await uploadVaultFile(owner, [recipient.id]);
    const recent = await uploadVaultFile(owner, [recipient.id]);
    const given = await giveVaultItem(owner, recipient, { condition_type: 'death_flag' });
    const dayAgo = Date.now() - 86_400_000 - 1000;
    await env.DB.prepare('UPDATE vault_assets SET created_at = ? WHERE id IN (?, ?)').bind(dayAgo, abandoned.asset_id, given.asset_id).run();
    const keyOf = async (assetId: string) =>
      (await env.DB.prepare('SELECT r2_key FROM vault_assets WHERE id = ?').bind(assetId).first<{ r2_key: string }>())?.r2_key;
    const abandonedKey = (await keyOf(abandoned.asset_id))!;

    expect(await sweepUnassignedVaultFiles(servicesAt(Date.now()))).toBeGreaterThanOrEqual(1);
    expect(await keyOf(abandoned.asset_id)).toBeUndefined();
    expect(await env.BLOBS.head(abandonedKey)).toBeNull();
    expect(await keyOf(recent.asset_id)).toBeDefined();
    expect(await keyOf(given.asset_id)).toBeDefined();
    // Assigning the swept file now is as if it never was uploaded.
    const late = await api('POST', '/api/vault/assign', {
      token: owner.token,
      json: { asset_id: abandoned.asset_id, recipient_user_id: recipient.id, condition_type: 'death_flag' },
    });
    expect(late.status).toBe(404);
  });
});
