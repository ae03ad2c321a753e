import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { CanaryNoticeJob } from '../src/contracts/jobs';
import { advanceCanary } from '../src/domains/canary/advance-canary';
import { sendCanaryNotice } from '../src/domains/owner-notices/canary-notices';
import { signedInUser } from './helpers/api';
import { captureJobs, createCanaryFor, noQuietHours, servicesAt, transitionsOf } from './helpers/canary';

/**
 * Found by the system simulation (docs/decisions/simulation.md, seed 11): a crash after a channel accepted a
 * grace reminder and before the notice was marked sent made the queue retry the job, and the retry reported
 * the warning as delivered at its own time — the owner's timely reminder counted as late.
 */
describe('a grace reminder whose job crashed after the channel accepted it', () => {
  it('counts as delivered when the channel first accepted it, not when the retry ran', async () => {
    const owner = await signedInUser();
    await noQuietHours(owner.id);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    const graceStart = start + 0.8 * 3_600_000;
    const { sent } = await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'));
    const reminder = (sent as CanaryNoticeJob[]).find((j) => j.type === 'canary_notice' && j.kind === 'grace_reminder')!;

    // The email is accepted; then marking the notice sent fails (the Worker is gone): the job throws.
    const prepare = env.DB.prepare.bind(env.DB);
    const crash = vi.spyOn(env.DB, 'prepare').mockImplementation((query: string) => {
      if (/^update "owner_notices" set "status"/i.test(query)) throw new Error('the Worker crashed');
      return prepare(query);
    });
    try {
      await expect(sendCanaryNotice(servicesAt(graceStart), reminder)).rejects.toThrow('the Worker crashed');
    } finally {
      crash.mockRestore();
    }
    // The queue retries it five minutes later.
    await sendCanaryNotice(servicesAt(graceStart + 5 * 60_000), reminder);
    const row = (await transitionsOf(canary.id)).find((t) => t.kind === 'grace_reminder');
    expect(row?.delivered_at).toBe(graceStart);
  });
});
