import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DEADMAN_FINAL_NOTICE_MS, processDeadmanSwitches } from '../src/domains/deadman/process-deadman';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { checkInWithQueueDown } from './helpers/canary-clock';

const HOUR = 3600_000;

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

  it('schedules the deletion when the deadline passes, and deletes the account a day later', async () => {
    const owner = await signedInUser();
    await createCanaryFor(owner.token);
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);

    expect(await processDeadmanSwitches(servicesAt(deadline - 1000))).toEqual({ scheduled: 0, deleted: 0 });
    expect(await processDeadmanSwitches(servicesAt(deadline + 1000))).toEqual({ scheduled: 1, deleted: 0 });
    const listed = await api('GET', '/api/legal/deletions', { token: owner.token });
    expect(listed.data.items).toEqual([
      expect.objectContaining({ type: 'account', status: 'scheduled', deletion_date: new Date(deadline + 1000 + DEADMAN_FINAL_NOTICE_MS).toISOString() }),
    ]);
    // Running again within the final day changes nothing.
    expect(await processDeadmanSwitches(servicesAt(deadline + 2 * HOUR))).toEqual({ scheduled: 0, deleted: 0 });

    expect(await processDeadmanSwitches(servicesAt(deadline + 1000 + DEADMAN_FINAL_NOTICE_MS))).toEqual({ scheduled: 0, deleted: 1 });
    for (const table of ['users', 'sessions', 'canaries', 'activity', 'deadman_switches', 'canary_transitions']) {
      const column = table === 'users' ? 'id' : 'user_id';
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).bind(owner.id).first<{ n: number }>();
      expect(row?.n, table).toBe(0);
    }
    const record = await env.DB.prepare('SELECT status FROM scheduled_deletions WHERE user_id = ?').bind(owner.id).first<{ status: string }>();
    expect(record?.status).toBe('done');
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(401);
  });

  it('moves its deadline at every check-in, and a check-in cancels a scheduled deletion', async () => {
    const owner = await signedInUser();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);
    await processDeadmanSwitches(servicesAt(deadline + 1000));
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items[0].status).toBe('scheduled');

    expect((await api('POST', '/api/canary/checkin', { token: owner.token, json: {} })).status).toBe(200);
    const after = await api('GET', '/api/deadman', { token: owner.token });
    expect(Date.parse(after.data.deadline) - Date.now()).toBeGreaterThan(0.9 * HOUR);
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([expect.objectContaining({ status: 'armed' })]);
    // The cancelled deletion is never carried out (a day later the switch, not yet passed again, deletes nothing).
    expect((await processDeadmanSwitches(servicesAt(deadline + 1000 + DEADMAN_FINAL_NOTICE_MS))).deleted).toBe(0);
    expect((await api('GET', '/api/auth/me', { token: owner.token })).status).toBe(200);
  });

  it('schedules nothing when the owner checked in by token and only the canary’s object knows yet', async () => {
    const owner = await signedInUser();
    const canary = await createCanaryFor(owner.token);
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const deadline = Date.parse(setup.data.deadline);
    // Ten minutes before the deadline, by the canary's token; the copy for D1 is not sent.
    const entry = await checkInWithQueueDown(canary.id, deadline - 10 * 60_000);

    expect(await processDeadmanSwitches(servicesAt(deadline + 1000))).toEqual({ scheduled: 0, deleted: 0 });
    expect((await api('GET', '/api/legal/deletions', { token: owner.token })).data.items).toEqual([expect.objectContaining({ status: 'armed' })]);
    const now = await api('GET', '/api/deadman', { token: owner.token });
    expect(Date.parse(now.data.deadline)).toBe(entry.at + HOUR);
    // Past the deadline that check-in set, the switch does its work.
    expect(await processDeadmanSwitches(servicesAt(entry.at + HOUR + 1000))).toEqual({ scheduled: 1, deleted: 0 });
  });

  it('cancel removes the switch and any scheduled deletion', async () => {
    const owner = await signedInUser();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    await processDeadmanSwitches(servicesAt(Date.parse(setup.data.deadline) + 1000));
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
