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
  /** The owner's grace reminder, sent at grace start; `crashOn` names the statement that fails on the first try. */
  async function reminderWhoseFirstTryCrashes(crashOn: RegExp) {
    const owner = await signedInUser();
    await noQuietHours(owner.id);
    const canary = await createCanaryFor(owner.token, { interval_seconds: 3600 });
    const start = Date.parse(canary.last_check_in);
    const graceStart = start + 0.8 * 3_600_000;
    const { sent } = await captureJobs(() => advanceCanary(servicesAt(graceStart), canary.id, 'alarm'));
    const reminder = (sent as CanaryNoticeJob[]).find((j) => j.type === 'canary_notice' && j.kind === 'grace_reminder')!;

    const prepare = env.DB.prepare.bind(env.DB);
    const crash = vi.spyOn(env.DB, 'prepare').mockImplementation((query: string) => {
      if (crashOn.test(query)) throw new Error('the Worker crashed');
      return prepare(query);
    });
    try {
      await expect(sendCanaryNotice(servicesAt(graceStart), reminder)).rejects.toThrow('the Worker crashed');
    } finally {
      crash.mockRestore();
    }
    // The queue retries it five minutes later; the mailbox's idempotency key makes its send a no-op.
    await sendCanaryNotice(servicesAt(graceStart + 5 * 60_000), reminder);
    const row = (await transitionsOf(canary.id)).find((t) => t.kind === 'grace_reminder');
    const mail = await env.DB.prepare(`SELECT count(*) AS n FROM outbox_messages WHERE idempotency_key LIKE ?`)
      .bind(`notice:${reminder.transition_id}:%`)
      .first<{ n: number }>();
    return { deliveredAt: row?.delivered_at, graceStart, copies: mail?.n };
  }

  it('counts as delivered when the channel first accepted it, not when the retry ran', async () => {
    // The email is accepted; then marking the notice sent (the one write that sets sent_at) fails (the Worker is gone):
    // the job throws.
    const { deliveredAt, graceStart, copies } = await reminderWhoseFirstTryCrashes(/^update "owner_notices" set .*"sent_at" = /i);
    expect(deliveredAt).toBe(graceStart);
    expect(copies, 'one email reached the owner').toBe(1);
  });

  it('counts from the first acceptance also when the crash came before the delivery was written down', async () => {
    // A fault the simulation injects (a D1 round trip that fails): the email is accepted, then writing the attempt
    // fails, so the notice keeps no trace of that acceptance; the retry's send is a no-op that answers with the first
    // acceptance's time. (Before, the retry dated it: one grace period of lateness, the likely cause of a seed-8 flake.)
    const { deliveredAt, graceStart, copies } = await reminderWhoseFirstTryCrashes(/^insert into "owner_notice_deliveries"/i);
    expect(deliveredAt).toBe(graceStart);
    expect(copies, 'one email reached the owner').toBe(1);
  });
});
