import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { moveUserFiles } from '../src/domains/inactivity/cold-storage';
import { EXPORT_WINDOW_MS, INACTIVE_AFTER_MS, REMINDERS_BEFORE_ARCHIVE_MS } from '../src/domains/inactivity/policy';
import { ARCHIVED_READ_ONLY } from '../src/domains/inactivity/read-only';
import { sweepInactiveAccounts } from '../src/domains/inactivity/sweep-inactive-accounts';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { captureQueues, createMessageFor, scriptedChannels } from './helpers/messages';
import { uploadVaultFile } from './helpers/vault';

const DAY = 24 * 3600_000;
type Owner = Awaited<ReturnType<typeof signedInUser>>;

/** The owner's last sign-in, as the server recorded it (the start of the policy's clock). */
const lastSignIn = async (owner: Owner) =>
  (await env.DB.prepare('SELECT last_sign_in_at AS t FROM users WHERE id = ?').bind(owner.id).first<{ t: number }>())!.t;
const windowOf = (owner: Owner) =>
  env.DB.prepare('SELECT * FROM account_inactivity WHERE user_id = ?')
    .bind(owner.id)
    .first<{ archive_at: number; reminders_sent: number; archived_at: number | null }>();
const noticesOf = async (owner: Owner) =>
  (
    await env.DB.prepare('SELECT id, kind, subject, text FROM owner_notices WHERE user_id = ? ORDER BY created_at').bind(owner.id).all<{
      id: string;
      kind: string;
      subject: string;
      text: string;
    }>()
  ).results.filter((n) => n.kind.startsWith('inactivity') || n.kind === 'account_archived');
const archivedAt = async (owner: Owner) =>
  (await env.DB.prepare('SELECT archived_at AS t FROM users WHERE id = ?').bind(owner.id).first<{ t: number | null }>())!.t;
/** Sweeps at `at`, recording what it queues. */
const sweepAt = (at: number) => captureQueues(() => sweepInactiveAccounts(servicesAt(at)));

/** Opens the owner's export window: a sweep a year after their last sign-in. */
async function openWindow(owner: Owner) {
  const opensAt = (await lastSignIn(owner)) + INACTIVE_AFTER_MS;
  await sweepAt(opensAt);
  return { opensAt, archiveAt: opensAt + EXPORT_WINDOW_MS };
}

describe('the inactivity policy (docs/decisions/inactivity.md)', () => {
  it('opens the free export window after a year with neither a sign-in nor a check-in, once, and lists the archival', async () => {
    const owner = await signedInUser();
    const since = await lastSignIn(owner);

    await sweepAt(since + INACTIVE_AFTER_MS - 1000);
    expect(await windowOf(owner)).toBeNull();

    const { jobs } = await sweepAt(since + INACTIVE_AFTER_MS);
    const [notice] = await noticesOf(owner);
    expect(notice).toMatchObject({ kind: 'inactivity_window_started', subject: 'We have not seen you on Afterword for a year' });
    expect(notice!.text).toContain('download everything we hold for you, free');
    expect(notice!.text).toContain('Nothing is deleted');
    expect(jobs.map((j) => j.body)).toContainEqual({ type: 'owner_notice', notice_id: notice!.id });

    const archiveAt = since + INACTIVE_AFTER_MS + EXPORT_WINDOW_MS;
    expect((await windowOf(owner))?.archive_at).toBe(archiveAt);
    const deletions = await api('GET', '/api/legal/deletions', { token: owner.token });
    expect(deletions.data.items).toEqual([
      { type: 'archival', id: 'inactivity', deletion_date: new Date(archiveAt).toISOString(), status: 'scheduled', reason: 'inactivity' },
    ]);

    // A second sweep the same day opens nothing and tells nobody again.
    await sweepAt(since + INACTIVE_AFTER_MS + 3600_000);
    expect(await noticesOf(owner)).toHaveLength(1);
    expect((await windowOf(owner))?.archive_at).toBe(archiveAt);
  });

  it('tells the owner on every channel they have, even with every alert switched off, after their quiet hours', async () => {
    const owner = await signedInUser();
    await env.DB.prepare('UPDATE users SET phone_e164 = ?, phone_verified_at = ? WHERE id = ?').bind('+14155550100', Date.now(), owner.id).run();
    const prefs = { methods: [], quiet_hours: { start: '22:00', end: '07:00' }, alerts: { vaults: false, messages: false, canary_events: false } };
    expect((await api('POST', '/api/notify/preferences', { token: owner.token, json: prefs })).status).toBe(200);
    const { opensAt } = await openWindow(owner);
    const [notice] = await noticesOf(owner);

    const night = new Date(opensAt + DAY);
    night.setUTCHours(23, 0, 0, 0);
    expect(await sendOwnerNotice(servicesAt(night.getTime()), notice!.id, scriptedChannels([{ ok: true }]))).toBe('delayed');
    const noon = new Date(night.getTime() + DAY);
    noon.setUTCHours(12, 0, 0, 0);
    const channels = scriptedChannels([{ ok: true }]);
    expect(await sendOwnerNotice(servicesAt(noon.getTime()), notice!.id, channels)).toBe('sent');
    expect(channels.calls.map((c) => [c.kind, c.to])).toEqual([
      ['email', owner.email],
      ['sms', '+14155550100'],
    ]);
  });

  it('reminds six months, one month and one week before the archival, each once', async () => {
    const owner = await signedInUser();
    const { archiveAt } = await openWindow(owner);
    const [sixMonths, oneMonth, oneWeek] = REMINDERS_BEFORE_ARCHIVE_MS.map((before) => archiveAt - before);
    const remindersAt = async (at: number) => {
      await sweepAt(at);
      return (await noticesOf(owner)).filter((n) => n.kind === 'inactivity_reminder');
    };

    expect(await remindersAt(sixMonths! - 1000)).toHaveLength(0);
    expect(await remindersAt(sixMonths!)).toHaveLength(1);
    expect(await remindersAt(sixMonths! + DAY)).toHaveLength(1);
    expect(await remindersAt(oneMonth!)).toHaveLength(2);
    expect(await remindersAt(oneWeek!)).toHaveLength(3);
    const reminders = await remindersAt(oneWeek! + DAY);
    expect(reminders.map((r) => r.text.match(/^(\d+) days are left/)?.[1])).toEqual(['182', '30', '7']);
    expect(reminders.every((r) => r.subject.startsWith('Your Afterword account will be archived on '))).toBe(true);
  });

  it('sends only the latest reminder when the sweep missed the earlier ones', async () => {
    const owner = await signedInUser();
    const { archiveAt } = await openWindow(owner);
    await sweepAt(archiveAt - 3 * DAY);
    expect((await windowOf(owner))?.reminders_sent).toBe(3);
    expect((await noticesOf(owner)).filter((n) => n.kind === 'inactivity_reminder')).toHaveLength(1);
  });

  it('archives at the end of the window: read-only, signed out, files cold; signing in restores it as it was', async () => {
    const owner = await signedInUser();
    const key = await api('POST', '/api/developer/keys', {
      token: owner.token,
      json: { name: 'backup', scopes: ['read:canary', 'create:vault'], sandbox: false },
    });
    expect(key.status).toBe(201);
    const file = await uploadVaultFile(owner, []);
    const { archiveAt } = await openWindow(owner);

    await sweepAt(archiveAt - 1000);
    expect(await archivedAt(owner)).toBeNull();
    const { jobs } = await sweepAt(archiveAt);
    expect(await archivedAt(owner)).toBe(archiveAt);
    expect((await noticesOf(owner)).at(-1)).toMatchObject({ kind: 'account_archived', subject: 'Your Afterword account is archived' });
    expect((await api('GET', '/api/legal/deletions', { token: key.data.key })).status).toBe(403); // keys never reach data rights
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(401);

    // Read-only: a key still reads, and is refused any change.
    expect((await api('GET', '/api/canary/status', { token: key.data.key })).status).toBe(200);
    const write = await api('POST', '/api/vault/create', { token: key.data.key, body: new FormData() });
    expect(write).toMatchObject({ status: 403, data: { detail: ARCHIVED_READ_ONLY } });

    // The files move to the cold storage class through the queue, once.
    expect(jobs.map((j) => j.body)).toContainEqual({ type: 'storage_class', user_id: owner.id });
    const asset = await env.DB.prepare('SELECT r2_key FROM vault_assets WHERE id = ?').bind(file.asset_id).first<{ r2_key: string }>();
    const before = await (await env.BLOBS.get(asset!.r2_key))!.arrayBuffer();
    expect(await moveUserFiles(servicesAt(archiveAt), { type: 'storage_class', user_id: owner.id })).toEqual({ moved: 1, more: false });
    expect((await env.BLOBS.head(asset!.r2_key))?.customMetadata?.storage_class).toBe('InfrequentAccess');
    expect(await (await env.BLOBS.get(asset!.r2_key))!.arrayBuffer()).toEqual(before);
    expect((await moveUserFiles(servicesAt(archiveAt), { type: 'storage_class', user_id: owner.id })).moved).toBe(0);

    // Signing in restores everything: writable, the window closed, the files back in the standard class.
    const { jobs: restoreJobs } = await captureQueues(() => api('POST', '/api/auth/login', { json: { email: owner.email, password: owner.password } }));
    expect(await archivedAt(owner)).toBeNull();
    expect(await windowOf(owner)).toBeNull();
    expect(restoreJobs.map((j) => j.body)).toContainEqual({ type: 'storage_class', user_id: owner.id });
    expect((await moveUserFiles(servicesAt(archiveAt + DAY), { type: 'storage_class', user_id: owner.id })).moved).toBe(1);
    expect((await env.BLOBS.head(asset!.r2_key))?.customMetadata?.storage_class).toBe('Standard');
    const restored = await env.DB.prepare("SELECT summary FROM activity WHERE user_id = ? AND kind = 'account_restored'")
      .bind(owner.id)
      .first<{ summary: string }>();
    expect(restored?.summary).toBe('Welcome back: your archived account is restored as it was.');
    expect((await api('POST', '/api/vault/create', { token: key.data.key, body: new FormData() })).status).toBe(422);
  });

  it('counts a check-in as activity: the window it opened closes and the archival is no longer listed', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const longAgo = Date.now() - INACTIVE_AFTER_MS - DAY;
    await env.DB.batch([
      env.DB.prepare('UPDATE users SET last_sign_in_at = ?2, created_at = ?2 WHERE id = ?1').bind(owner.id, longAgo),
      env.DB.prepare('UPDATE canaries SET last_check_in = ?2 WHERE id = ?1').bind(canary.id, longAgo),
    ]);
    await sweepAt(Date.now());
    expect(await windowOf(owner)).not.toBeNull();

    expect((await api('POST', '/api/canary/checkin', { json: { token: canary.token } })).status).toBe(200);
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([]);
    await sweepAt(Date.now() + 60_000);
    expect(await windowOf(owner)).toBeNull();
  });

  it('never archives an account with a release still to come or a confirmed death, and never tells it', async () => {
    const waiting = await signedInUser();
    const recipient = await signedInUser();
    await createMessageFor(waiting.token, { recipient_user_id: recipient.id, deliver_at: new Date(Date.now() + 20 * 365 * DAY).toISOString() });
    const mourned = await signedInUser();
    await env.DB.prepare('UPDATE users SET death_confirmed_at = ? WHERE id = ?').bind(Date.now(), mourned.id).run();

    for (const step of [INACTIVE_AFTER_MS, INACTIVE_AFTER_MS + EXPORT_WINDOW_MS, 5 * INACTIVE_AFTER_MS]) {
      await sweepAt(Date.now() + step);
      for (const person of [waiting, mourned]) {
        expect(await windowOf(person)).toBeNull();
        expect(await archivedAt(person)).toBeNull();
        expect(await noticesOf(person)).toEqual([]);
      }
    }
  });

  it('does not archive an account whose death is confirmed while its window is open', async () => {
    const owner = await signedInUser();
    const { archiveAt } = await openWindow(owner);
    await env.DB.prepare('UPDATE users SET death_confirmed_at = ? WHERE id = ?')
      .bind(archiveAt - DAY, owner.id)
      .run();
    await sweepAt(archiveAt + DAY);
    expect(await archivedAt(owner)).toBeNull();
  });
});
