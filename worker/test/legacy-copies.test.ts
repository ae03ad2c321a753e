import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { HEIR_ERRORS } from '../src/contracts/legacy';
import { processDeadmanSwitches } from '../src/domains/deadman/process-deadman';
import { buildLegacyCopy } from '../src/domains/legacy/build-copy';
import { putStream } from '../src/domains/legacy/multipart-put';
import { toBase64, toHex } from '../src/lib/encoding';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, noQuietHours, servicesAt } from './helpers/canary';
import { contactsOf } from './helpers/contacts';
import { deadmanCronAt, sendDeletionWarning } from './helpers/deadman';
import { captureQueues, createMessageFor } from './helpers/messages';
import { uploadVaultFile, withKeys } from './helpers/vault';

/**
 * Share, then delete (docs/decisions/legacy-copies.md): the people an owner names receive, before a dead-man deletion
 * erases the account, one archive of the parts chosen for them — in their own records, so it outlives the
 * account — and the deletion waits until every copy is made.
 */
const HOUR = 3600_000;
type Person = Awaited<ReturnType<typeof signedInUser>>;

const setHeirs = (owner: Person, heirs: unknown) => api('POST', '/api/deadman/heirs', { token: owner.token, json: { heirs } });

async function download(person: Person, id: string) {
  const res = await exports.default.fetch(
    new Request(`http://afterword.test/api/legacy-copies/${id}/download`, { headers: { authorization: `Bearer ${person.token}` } }),
  );
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

const sha256 = async (bytes: Uint8Array) => toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));

/** Arms a one-hour dead-man switch, lets it pass (its warning reaching the owner at once) and returns when its deletion is due. */
async function passedDeadman(owner: Person) {
  await noQuietHours(owner.id);
  const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
  const passedAt = Date.parse(setup.data.deadline) + 1000;
  await deadmanCronAt(passedAt);
  expect(await sendDeletionWarning(owner.id, passedAt)).toBe('sent');
  const listed = await api('GET', '/api/legal/deletions', { token: owner.token });
  return Date.parse(listed.data.items[0].deletion_date);
}

/** Runs the cron at `at` and builds every copy it hands to the queue, as the JOBS consumer would. */
async function cronBuildingCopies(at: number) {
  const { result, jobs } = await captureQueues(() => processDeadmanSwitches(servicesAt(at)));
  const copies = jobs.filter((j) => j.body.type === 'legacy_copy').map((j) => j.body.copy_id as string);
  for (const id of copies) expect(await buildLegacyCopy(servicesAt(at), id)).toBe('built');
  return { result, copies };
}

describe('heirs of a dead-man deletion (GET|POST /api/deadman/heirs)', () => {
  it('are set as a whole list with parts, listed by name, and checked', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    const stranger = await signedInUser();
    await contactsOf(owner, friend);
    await api('PATCH', '/api/profile', { token: friend.token, json: { display_name: 'Bob' } });
    expect((await api('GET', '/api/deadman/heirs', { token: owner.token })).data).toEqual({ heirs: [] });
    // A user id is not an address book: someone who is not a contact is not found, and their email is not answered.
    const notContact = await setHeirs(owner, [{ recipient_user_id: stranger.id, parts: ['account'] }]);
    expect(notContact.status).toBe(404);
    expect(notContact.text).not.toContain(stranger.email);

    const set = await setHeirs(owner, [{ recipient_user_id: friend.id, parts: ['messages', 'vault'] }]);
    expect(set.status).toBe(200);
    expect(set.data.heirs).toEqual([{ recipient_user_id: friend.id, name: expect.stringContaining(friend.email), parts: ['messages', 'vault'] }]);

    const self = await setHeirs(owner, [{ recipient_user_id: owner.id, parts: ['account'] }]);
    expect(self.status).toBe(422);
    expect(self.data.detail[0].msg).toBe(HEIR_ERRORS.self);
    expect((await setHeirs(owner, [{ recipient_user_id: crypto.randomUUID(), parts: ['account'] }])).data.detail).toBe(HEIR_ERRORS.notContact);
    expect((await setHeirs(owner, [{ recipient_user_id: friend.id, parts: [] }])).status).toBe(422);
    expect((await setHeirs(owner, [{ recipient_user_id: friend.id, parts: ['letters'] }])).status).toBe(422);
    const twice = [
      { recipient_user_id: friend.id, parts: ['account'] },
      { recipient_user_id: friend.id, parts: ['vault'] },
    ];
    expect((await setHeirs(owner, twice)).status).toBe(422);
    // A refused list changed nothing.
    expect((await api('GET', '/api/deadman/heirs', { token: owner.token })).data.heirs).toHaveLength(1);
    expect((await setHeirs(owner, [])).data).toEqual({ heirs: [] });
  });
});

describe('the dead-man deletion with heirs', () => {
  it('makes each heir their copy of the chosen parts first, waits for it, and tells them only after the erasure', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    const sister = await signedInUser();
    const outsider = await signedInUser();
    await withKeys(owner);
    await createCanaryFor(owner.token);
    const recording = new Uint8Array([0x4f, 0x67, 0x67, 0x53, ...crypto.getRandomValues(new Uint8Array(300))]);
    await createMessageFor(owner.token, {
      recipient_user_id: outsider.id,
      content: 'For the outsider, after I am gone',
      rules: [{ trigger_type: 'fixed_date', trigger_value: new Date(Date.now() + 30 * 365 * 24 * HOUR).toISOString() }],
      audio_base64: toBase64(recording),
    });
    await uploadVaultFile(owner, []);
    await createMessageFor(outsider.token, { recipient_user_id: owner.id, content: 'a letter the owner received' });
    await contactsOf(owner, friend);
    await contactsOf(owner, sister);
    await setHeirs(owner, [
      { recipient_user_id: friend.id, parts: ['messages', 'vault'] },
      { recipient_user_id: sister.id, parts: ['history'] },
    ]);

    const due = await passedDeadman(owner);
    // Due: the copies are made first; the account is still there.
    const first = await cronBuildingCopies(due + 1);
    expect(first.result.deleted).toBe(0);
    expect(first.copies).toHaveLength(2);
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(200);
    expect((await api('GET', '/api/legacy-copies', { token: friend.token })).data).toEqual([]);

    const second = await cronBuildingCopies(due + 60_000);
    expect(second.result.deleted).toBe(1);
    expect(second.copies).toEqual([]);
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(401);

    // The friend is told, and finds the messages and vault parts — not the history, not letters others sent.
    const told = await env.DB.prepare("SELECT subject FROM owner_notices WHERE user_id = ? AND kind = 'legacy_copy_ready'")
      .bind(friend.id)
      .first<{ subject: string }>();
    expect(told?.subject).toBe(`${owner.email} left you a copy of their Afterword account`);
    const [copy] = (await api('GET', '/api/legacy-copies', { token: friend.token })).data;
    expect(copy).toMatchObject({ from: owner.email, parts: ['messages', 'vault'], status: 'ready' });
    const got = await download(friend, copy.id);
    expect(got).toMatchObject({ status: 200, type: 'application/zip' });
    expect(got.bytes.length).toBe(copy.size);
    const files = unzipSync(got.bytes);
    const names = Object.keys(files);
    expect(names).toEqual(expect.arrayContaining(['README.txt', 'data/messages_sent.json', 'data/vault_files.json', 'index.html', 'manifest.json']));
    expect(names.filter((n) => n.startsWith('files/vault/'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('files/messages_sent/'))).toHaveLength(1);
    expect(names.some((n) => n.startsWith('data/activity') || n.includes('received'))).toBe(false);
    // Only the pages its parts fill; no opener, since a copy holds no sealed private key for it to open.
    expect(names.filter((n) => n.endsWith('.html')).sort()).toEqual(['index.html', 'messages.html', 'vault.html']);
    expect(strFromU8(files['messages.html']!)).toContain('For the outsider, after I am gone');
    expect(strFromU8(files['README.txt']!)).toContain(`A copy of parts of ${owner.email}'s Afterword account (messages, vault)`);
    const sent = JSON.parse(strFromU8(files['data/messages_sent.json']!)) as { content: string }[];
    expect(sent.map((m) => m.content)).toEqual(['For the outsider, after I am gone']);
    const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as { files: { name: string; size: number; sha256: string }[] };
    for (const entry of manifest.files) {
      expect(files[entry.name]!.length, entry.name).toBe(entry.size);
      expect(await sha256(files[entry.name]!), entry.name).toBe(entry.sha256);
    }

    // The sister's copy holds the history only; nobody else can see or fetch either copy.
    const [sisterCopy] = (await api('GET', '/api/legacy-copies', { token: sister.token })).data;
    const sisterFiles = Object.keys(unzipSync((await download(sister, sisterCopy.id)).bytes));
    expect(sisterFiles).toEqual(expect.arrayContaining(['data/activity.json', 'data/canary_history.json']));
    expect(sisterFiles.some((n) => n.startsWith('files/') || n.startsWith('data/messages'))).toBe(false);
    expect((await download(outsider, copy.id)).status).toBe(404);
    expect((await download(sister, copy.id)).status).toBe(404);
    expect((await api('GET', '/api/legacy-copies', { token: outsider.token })).data).toEqual([]);

    // The copies name the deletion, never the erased account's id.
    const keyed = await env.DB.prepare('SELECT count(*) AS n FROM legacy_copies WHERE recipient_user_id = ?1 OR deletion_id = ?1 OR from_label LIKE ?2')
      .bind(owner.id, `%${owner.id}%`)
      .first<{ n: number }>();
    expect(keyed?.n).toBe(0);

    // The heir's own export carries the copy; their account deletion takes its bytes with it.
    const exported = await exports.default.fetch(
      new Request('http://afterword.test/api/legal/export', { headers: { authorization: `Bearer ${friend.token}` } }),
    );
    expect(Object.keys(unzipSync(new Uint8Array(await exported.arrayBuffer())))).toContain(`files/legacy/${copy.id}.zip`);
  });

  it('is cancelled by a check-in in the last minutes: copies already made are discarded and nobody is told', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    await createCanaryFor(owner.token);
    await contactsOf(owner, friend);
    await setHeirs(owner, [{ recipient_user_id: friend.id, parts: ['account'] }]);
    const due = await passedDeadman(owner);
    const made = await cronBuildingCopies(due + 1);
    expect(made.copies).toHaveLength(1);
    const key = await env.DB.prepare('SELECT r2_key FROM legacy_copies WHERE id = ?').bind(made.copies[0]).first<{ r2_key: string }>();
    expect(await env.BLOBS.head(key!.r2_key)).not.toBeNull();

    expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBe(200);
    const after = await captureQueues(() => processDeadmanSwitches(servicesAt(due + 60_000)));
    expect(after.result.deleted).toBe(0);
    expect(await env.BLOBS.head(key!.r2_key)).toBeNull();
    expect(await env.DB.prepare('SELECT count(*) AS n FROM legacy_copies WHERE id = ?').bind(made.copies[0]).first()).toEqual({ n: 0 });
    expect((await api('GET', '/api/legacy-copies', { token: friend.token })).data).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM owner_notices WHERE user_id = ? AND kind = 'legacy_copy_ready'").bind(friend.id).first()).toEqual({
      n: 0,
    });
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(200);
  });

  it('hands a lost copy job to the queue again, and a job for a cancelled deletion builds nothing', async () => {
    const owner = await signedInUser();
    const friend = await signedInUser();
    await contactsOf(owner, friend);
    await setHeirs(owner, [{ recipient_user_id: friend.id, parts: ['account'] }]);
    const due = await passedDeadman(owner);
    const lost = await captureQueues(() => processDeadmanSwitches(servicesAt(due + 1)));
    const copyId = lost.jobs.find((j) => j.body.type === 'legacy_copy')!.body.copy_id as string;
    // Within fifteen minutes the job is trusted to be on its way; after that it is sent again.
    expect((await captureQueues(() => processDeadmanSwitches(servicesAt(due + 60_000)))).jobs.filter((j) => j.body.type === 'legacy_copy')).toEqual([]);
    const again = await captureQueues(() => processDeadmanSwitches(servicesAt(due + 16 * 60_000)));
    expect(again.jobs.map((j) => j.body)).toContainEqual({ type: 'legacy_copy', copy_id: copyId });

    await env.DB.prepare("UPDATE scheduled_deletions SET status = 'cancelled' WHERE user_id = ?").bind(owner.id).run();
    expect(await buildLegacyCopy(servicesAt(due + 17 * 60_000), copyId)).toBe('none');
  });
});

describe('a copy streamed into R2 (putStream)', () => {
  it('writes a stream of unknown length across several parts, byte for byte', async () => {
    // Over 20 MiB in uneven chunks: two full 8 MiB parts and a shorter last one.
    const chunk = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + size) & 0xff);
    const chunks = Array.from({ length: 41 }, (_, i) => chunk(i === 40 ? 12_345 : 512 * 1024 + i));
    const whole = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      whole.set(c, at);
      at += c.length;
    }
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });
    const key = `test/multipart-${crypto.randomUUID()}`;
    expect(await putStream(env.BLOBS, key, stream)).toBe(whole.length);
    const stored = new Uint8Array(await (await env.BLOBS.get(key))!.arrayBuffer());
    expect(stored.length).toBe(whole.length);
    expect(await sha256(stored)).toBe(await sha256(whole));
  });

  it('leaves no object when the stream fails half-way', async () => {
    const key = `test/multipart-${crypto.randomUUID()}`;
    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(new Uint8Array(1024 * 1024));
        else controller.error(new Error('the archive broke'));
      },
    });
    await expect(putStream(env.BLOBS, key, failing)).rejects.toThrow('the archive broke');
    expect(await env.BLOBS.head(key)).toBeNull();
  });
});
