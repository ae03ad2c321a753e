import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { checkInAll } from '../src/domains/canary/check-in';
import { EXPORTS } from '../src/domains/legal/export/export-plan';
import { tableRows } from '../src/domains/legal/export/table-rows';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { checkInWithQueueDown } from './helpers/canary-clock';
import { deadmanCronAt } from './helpers/deadman';

const HOUR = 3600_000;

/**
 * The dead-man's deadline is the later of the stored one and the owner's latest check-in + hours; a check-in writes
 * nothing to the switch while the owner has an active canary, and the cron moves the stored deadline once it passes
 * (docs/decisions/deadman-deadline.md).
 */
const storedDeadline = async (userId: string) =>
  (await env.DB.prepare('SELECT deadline FROM deadman_switches WHERE user_id = ?').bind(userId).first<{ deadline: number }>())!.deadline;
const shownDeadline = async (token: string) => Date.parse((await api('GET', '/api/deadman', { token })).data.deadline);
/** The owner's dead-man deletion as the deletions list shows it: 'armed' until the switch passes, then 'scheduled'. */
const deletionStatus = async (token: string) => (await api('GET', '/api/legal/deletions', { token })).data.items[0]?.status;

/** An owner with one canary and a one-hour switch armed now; the stored deadline. */
async function ownerWithSwitch() {
  const owner = await signedInUser();
  const canary = await createCanaryFor(owner.token);
  const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
  return { owner, canary, armedDeadline: Date.parse(setup.data.deadline) };
}

describe("the dead-man's deadline as it stands", () => {
  it('moves with a check-in on a canary, which writes nothing to the switch', async () => {
    const { owner, armedDeadline } = await ownerWithSwitch();
    const at = armedDeadline - 10 * 60_000; // fifty minutes after arming
    await checkInAll(servicesAt(at), owner.id, 'web');
    expect(await storedDeadline(owner.id), 'the stored deadline is not written').toBe(armedDeadline);
    expect(await shownDeadline(owner.token)).toBe(at + HOUR);
    expect(await deletionStatus(owner.token)).toBe('armed');
  });

  it('the data export holds the deadline as the app shows it, not the older stored one', async () => {
    const { owner, armedDeadline } = await ownerWithSwitch();
    const at = armedDeadline - 10 * 60_000;
    await checkInAll(servicesAt(at), owner.id, 'web');
    const plan = EXPORTS.find((t) => t.table === 'deadman_switches')!;
    const rows = [];
    for await (const row of tableRows(env.DB, plan, owner.id)) rows.push(row);
    expect(rows).toEqual([expect.objectContaining({ user_id: owner.id, hours: 1, deadline: at + HOUR })]);
  });

  it('an owner with no canary: the Heartbeat writes the deadline itself', async () => {
    const owner = await signedInUser();
    const setup = await api('POST', '/api/deadman/setup', { token: owner.token, json: { hours: 1 } });
    const at = Date.parse(setup.data.deadline) - 10 * 60_000;
    await checkInAll(servicesAt(at), owner.id, 'web');
    expect(await storedDeadline(owner.id)).toBe(at + HOUR);
    await deadmanCronAt(Date.parse(setup.data.deadline) + 1000);
    expect(await deletionStatus(owner.token)).toBe('armed');
  });

  it('once the stored deadline passes, the cron moves it to the latest check-in, once, and schedules nothing', async () => {
    const { owner, armedDeadline } = await ownerWithSwitch();
    const at = armedDeadline - 10 * 60_000;
    await checkInAll(servicesAt(at), owner.id, 'web');
    await deadmanCronAt(armedDeadline + 1000);
    expect(await deletionStatus(owner.token)).toBe('armed');
    expect(await storedDeadline(owner.id), 'moved once, by the cron').toBe(at + HOUR);
    // Past the deadline that check-in set, the switch does its work.
    await deadmanCronAt(at + HOUR + 1000);
    expect(await deletionStatus(owner.token)).toBe('scheduled');
  });

  it('deleting the canary that holds the latest check-in keeps it, even one only its object knew', async () => {
    const { owner, canary, armedDeadline } = await ownerWithSwitch();
    // A token check-in the object holds, its copy for D1 never sent; then the owner deletes that canary.
    const entry = await checkInWithQueueDown(canary.id, armedDeadline - 10 * 60_000);
    expect((await api('DELETE', `/api/canary/${canary.id}`, { token: owner.token })).status).toBe(200);
    expect(await shownDeadline(owner.token)).toBe(entry.at + HOUR);
    await deadmanCronAt(armedDeadline + 1000);
    expect(await deletionStatus(owner.token)).toBe('armed');
    await deadmanCronAt(entry.at + HOUR + 1000);
    expect(await deletionStatus(owner.token)).toBe('scheduled');
  });
});
