import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DEADMAN_FINAL_NOTICE_MS, deletionNoticeInsert } from '../src/domains/deadman/deletion-notice';
import { advanceMessage } from '../src/domains/messages/release/advance-message';
import { sendOwnerNotice } from '../src/domains/owner-notices/send-owner-notice';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, noQuietHours, servicesAt } from './helpers/canary';
import { checkInWithQueueDown } from './helpers/canary-clock';
import { deadmanCronAt, sendDeletionWarning } from './helpers/deadman';
import { createMessageFor, messageRow, scriptedChannels } from './helpers/messages';

const HOUR = 3600_000;

const noticeOf = (id: string) =>
  env.DB.prepare('SELECT kind, subject, text, status, sent_at FROM owner_notices WHERE id = ?')
    .bind(id)
    .first<{ kind: string; subject: string; text: string; status: string; sent_at: number | null }>();
/** An owner whose warnings go out whenever they are due (the default quiet hours would hold one sent at night). */
async function ownerAwake() {
  const owner = await signedInUser();
  await noQuietHours(owner.id);
  return owner;
}
const accountExists = async (userId: string) => (await env.DB.prepare('SELECT count(*) AS n FROM users WHERE id = ?').bind(userId).first('n')) === 1;

describe("the dead-man's switch", () => {
  it('sets up with hours and lists the deletion beforehand', async () => {
    const owner = await signedInUser();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 48 } });
    expect(setup.status).toBe(200);
    expect(setup.data).toMatchObject({ active: true, hours: 48 });
    expect(Date.parse(setup.data.deadline) - Date.now()).toBeGreaterThan(47.9 * HOUR);
    const deletions = await api('GET', '/api/legal/deletions', { token: owner.token });
    expect(deletions.data.items).toEqual([
      {
        type: 'account',
        id: 'deadman',
        status: 'armed',
        reason: 'deadman',
        deletion_date: new Date(Date.parse(setup.data.deadline) + DEADMAN_FINAL_NOTICE_MS).toISOString(),
      },
    ]);
  });

  it.each([
    ['0', 0],
    ['negative', -1],
    ['over a year', 8761],
    ['a string', '24'],
    ['missing', undefined],
  ])('refuses hours that are %s with 422', async (_name, hours) => {
    const owner = await signedInUser();
    const res = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours } });
    expect(res.status).toBe(422);
    expect(res.data.detail[0].loc).toEqual(['body', 'hours']);
  });

  it('schedules the deletion when the deadline passes, warns the owner, and deletes the account a day after the warning reached them', async () => {
    const owner = await ownerAwake();
    await createCanaryFor(owner.token);
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);

    expect(await deadmanCronAt(deadline - 1000)).toEqual({ scheduled: 0, deleted: 0, notices: [] });
    const passed = await deadmanCronAt(deadline + 1000);
    expect(passed).toMatchObject({ scheduled: 1, deleted: 0 });
    const listed = await api('GET', '/api/legal/deletions', { token: owner.token });
    expect(listed.data.items).toEqual([
      expect.objectContaining({ type: 'account', status: 'scheduled', deletion_date: new Date(deadline + 1000 + DEADMAN_FINAL_NOTICE_MS).toISOString() }),
    ]);
    // The warning, one per deletion, on the owner's channels (here the local outbox), the moment it is queued.
    expect(passed.notices).toEqual([listed.data.items[0].id]);
    expect(await sendOwnerNotice(servicesAt(deadline + 1000), passed.notices[0]!)).toBe('sent');
    expect(await noticeOf(passed.notices[0]!)).toMatchObject({
      kind: 'deadman_deletion_scheduled',
      subject: 'Your Afterword account will be deleted unless you check in',
      status: 'sent',
    });
    // Running again within the final day changes nothing.
    expect(await deadmanCronAt(deadline + 2 * HOUR)).toEqual({ scheduled: 0, deleted: 0, notices: [] });

    expect(await deadmanCronAt(deadline + 1000 + DEADMAN_FINAL_NOTICE_MS)).toMatchObject({ scheduled: 0, deleted: 1 });
    for (const table of ['users', 'sessions', 'canaries', 'activity', 'deadman_switches', 'canary_transitions', 'owner_notices']) {
      const column = table === 'users' ? 'id' : 'user_id';
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).bind(owner.id).first<{ n: number }>();
      expect(row?.n, table).toBe(0);
    }
    const record = await env.DB.prepare('SELECT status FROM scheduled_deletions WHERE user_id = ?').bind(owner.id).first<{ status: string }>();
    expect(record?.status).toBe('done');
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(401);
  });

  it('deletes nothing while the warning reaches no channel, and counts the final day from when it does', async () => {
    const owner = await ownerAwake();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);
    const [warning] = (await deadmanCronAt(deadline)).notices;
    // Every provider down: the warning stays pending (tried again with backoff), and the day passes.
    const down = scriptedChannels([{ ok: false, retryable: true, error: 'provider down' }]);
    expect(await sendOwnerNotice(servicesAt(deadline), warning!, down)).toBe('undelivered');
    expect(await deadmanCronAt(deadline + DEADMAN_FINAL_NOTICE_MS)).toMatchObject({ deleted: 0 });
    expect(await deadmanCronAt(deadline + 3 * DEADMAN_FINAL_NOTICE_MS)).toMatchObject({ deleted: 0 });
    expect(await accountExists(owner.id)).toBe(true);

    // It reaches them two days late: the deletion moves to a day after that, and the list says so.
    const reached = deadline + 2 * DEADMAN_FINAL_NOTICE_MS;
    expect(await sendOwnerNotice(servicesAt(reached), warning!, scriptedChannels([{ ok: true }]))).toBe('sent');
    expect(await deadmanCronAt(reached + HOUR)).toMatchObject({ deleted: 0 });
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([
      expect.objectContaining({ status: 'scheduled', deletion_date: new Date(reached + DEADMAN_FINAL_NOTICE_MS).toISOString() }),
    ]);
    expect(await deadmanCronAt(reached + DEADMAN_FINAL_NOTICE_MS - 60_000)).toMatchObject({ deleted: 0 });
    expect(await accountExists(owner.id)).toBe(true);
    expect(await deadmanCronAt(reached + DEADMAN_FINAL_NOTICE_MS)).toMatchObject({ deleted: 1 });
    expect(await accountExists(owner.id)).toBe(false);
  });

  it('does not send the warning of a deletion a check-in already cancelled', async () => {
    const owner = await ownerAwake();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const [warning] = (await deadmanCronAt(Date.parse(setup.data.deadline) + 1000)).notices;
    expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBe(200);
    const channels = scriptedChannels([{ ok: true }]);
    expect(await sendOwnerNotice(servicesAt(Date.parse(setup.data.deadline) + HOUR), warning!, channels)).toBe('skipped');
    expect(channels.calls).toEqual([]);
  });

  it('warns first, and waits a day, for a deletion scheduled before the switch sent warnings', async () => {
    const owner = await ownerAwake();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);
    const id = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO scheduled_deletions (id, user_id, type, reason, deletion_date, status, created_at) VALUES (?, ?, 'account', 'deadman', ?, 'scheduled', ?)",
    )
      .bind(id, owner.id, deadline + DEADMAN_FINAL_NOTICE_MS, deadline)
      .run();
    const due = await deadmanCronAt(deadline + DEADMAN_FINAL_NOTICE_MS);
    expect(due.deleted).toBe(0);
    expect(due.notices).toContain(id);
    expect(await accountExists(owner.id)).toBe(true);
    expect(await sendOwnerNotice(servicesAt(deadline + DEADMAN_FINAL_NOTICE_MS), id, scriptedChannels([{ ok: true }]))).toBe('sent');
    await deadmanCronAt(deadline + 2 * DEADMAN_FINAL_NOTICE_MS - 60_000);
    expect(await accountExists(owner.id)).toBe(true);
    await deadmanCronAt(deadline + 2 * DEADMAN_FINAL_NOTICE_MS);
    expect(await accountExists(owner.id)).toBe(false);
  });

  it('moves its deadline at every check-in, and a check-in cancels a scheduled deletion', async () => {
    const owner = await signedInUser();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);
    await deadmanCronAt(deadline + 1000);
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items[0].status).toBe('scheduled');

    expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBe(200);
    const after = await api('GET', '/api/deadman', { token: owner.token });
    expect(Date.parse(after.data.deadline) - Date.now()).toBeGreaterThan(0.9 * HOUR);
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([expect.objectContaining({ status: 'armed' })]);
    // The cancelled deletion is never carried out (a day later the switch, not yet passed again, deletes nothing).
    expect((await deadmanCronAt(deadline + 1000 + DEADMAN_FINAL_NOTICE_MS)).deleted).toBe(0);
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(200);
  });

  it('schedules nothing when the owner checked in by token and only the canary’s object knows yet', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);
    // Ten minutes before the deadline, by the canary's token; the copy for D1 is not sent.
    const entry = await checkInWithQueueDown(canary.id, deadline - 10 * 60_000);

    expect(await deadmanCronAt(deadline + 1000)).toEqual({ scheduled: 0, deleted: 0, notices: [] });
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([expect.objectContaining({ status: 'armed' })]);
    const now = await api('GET', '/api/deadman', { token: owner.token });
    expect(Date.parse(now.data.deadline)).toBe(entry.at + HOUR);
    // Past the deadline that check-in set, the switch does its work.
    expect(await deadmanCronAt(entry.at + HOUR + 1000)).toMatchObject({ scheduled: 1, deleted: 0 });
  });

  it('cancel removes the switch and any scheduled deletion', async () => {
    const owner = await signedInUser();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    await deadmanCronAt(Date.parse(setup.data.deadline) + 1000);
    const cancelled = await api('POST', '/api/deadman/cancel', { token: owner.token });
    expect(cancelled.data).toEqual({ active: false, hours: null, deadline: null });
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([]);
    const kinds = (await api('GET', '/api/activity', { token: owner.token })).data.map((a: { kind: string }) => a.kind);
    expect(kinds).toEqual(expect.arrayContaining(['deadman_set', 'account_deletion_scheduled', 'deadman_cancelled']));
  });

  it('needs a session', async () => {
    expect((await api('POST', '/api/deadman/setup', { json: { hours: 1 } })).status).toBe(401);
    expect((await api('POST', '/api/deadman/cancel')).status).toBe(401);
    expect((await api('GET', '/api/legal/deletions')).status).toBe(401);
  });
});

describe('due deletions, many of them waiting', () => {
  it('carries out one that can go ahead, however many wait for their warning to reach their owner', async () => {
    const now = Date.now();
    // Sixty owners whose dead-man deletion is due and whose warning no channel has taken (held in its queue): they wait.
    const waiting = await Promise.all(Array.from({ length: 60 }, () => signedInUser()));
    const insert = (id: string, userId: string, reason: string, dueAt: number) =>
      env.DB.prepare(
        "INSERT INTO scheduled_deletions (id, user_id, type, reason, deletion_date, status, created_at) VALUES (?, ?, 'account', ?, ?, 'scheduled', ?)",
      ).bind(id, userId, reason, dueAt, dueAt - 8 * 24 * HOUR);
    const ctx = servicesAt(now - 3 * HOUR);
    for (const [i, w] of waiting.entries()) {
      const id = crypto.randomUUID();
      const dueAt = now - 2 * HOUR - i * 1000;
      await insert(id, w.id, 'deadman', dueAt).run();
      // Its warning, written when it was scheduled and still pending: no channel has taken it.
      await deletionNoticeInsert(ctx, { id, userId: w.id, hours: 48, deletionDate: new Date(dueAt), at: new Date(dueAt - 24 * HOUR) });
    }
    // One who asked to leave, due after all of them: nothing holds theirs.
    const leaver = await signedInUser();
    await insert(crypto.randomUUID(), leaver.id, 'request', now - HOUR).run();
    // A deletion that can go ahead is drawn among the fifty a run looks at with a chance of 50 in 61: twenty runs
    // leave it undone with a chance under 1e-14. Before, the fifty earliest — all waiting — took every run.
    for (let run = 0; run < 20 && (await accountExists(leaver.id)); run++) await deadmanCronAt(now + run * 60_000);
    expect(await accountExists(leaver.id)).toBe(false);
    expect((await Promise.all(waiting.map((w) => accountExists(w.id)))).every(Boolean), 'the waiting ones still wait').toBe(true);
    // They leave the file's runtime as they found it: sixty due deletions would take most of a later test's cron run.
    await env.DB.batch(waiting.map((w) => env.DB.prepare("UPDATE scheduled_deletions SET status = 'cancelled' WHERE user_id = ?").bind(w.id)));
  });
});

describe('a dead-man deletion and the releases under way', () => {
  /** An owner with a switch of an hour and a message armed by its date, its cancel window a day long; the switch's deadline. */
  async function ownerWithArmedMessage() {
    const owner = await ownerAwake();
    const recipient = await signedInUser();
    await createCanaryFor(owner.token);
    const at = Date.now() + 60_000;
    const m = await createMessageFor(owner.token, {
      recipient_user_id: recipient.id,
      rules: [{ trigger_type: 'fixed_date', trigger_value: new Date(at).toISOString(), expire_window: 1 }],
    });
    await advanceMessage(servicesAt(at + 1000), m.id, 'direct');
    expect((await messageRow(m.id))!.status).toBe('armed');
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    return { owner, deadline: Date.parse(setup.data.deadline) };
  }

  /** Passes the switch, has its warning reach the owner, and runs the cron a day later: whether the account is gone. */
  async function aDayAfterTheWarning(owner: { id: string }, deadline: number) {
    await deadmanCronAt(deadline + 1000);
    expect(await sendDeletionWarning(owner.id, deadline + 1000)).toBe('sent');
    await deadmanCronAt(deadline + 1000 + DEADMAN_FINAL_NOTICE_MS + 60_000);
    return !(await accountExists(owner.id));
  }

  it('waits for an armed message', async () => {
    const { owner, deadline } = await ownerWithArmedMessage();
    expect(await aDayAfterTheWarning(owner, deadline)).toBe(false);
  });

  it('does not wait for one paused by the owner’s withdrawn messages consent: nothing releases it', async () => {
    const { owner, deadline } = await ownerWithArmedMessage();
    expect((await api('POST', '/api/legal/consent/messages', { token: owner.token, json: { consent: false } })).status).toBe(200);
    expect(await aDayAfterTheWarning(owner, deadline)).toBe(true);
  });
});
