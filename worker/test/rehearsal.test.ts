import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFY_PREFERENCES } from '../src/contracts/notify';
import { clockOf, settleCanaries } from '../src/domains/canary/canary-timer';
import { saveNotifyPreferences } from '../src/domains/notify/preferences';
import { TEST_FIRST_LINE, TEST_PREFIX } from '../src/domains/rehearsal/run-rehearsal';
import { api, signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { guardianOf } from './helpers/guardian';
import { createMessageFor } from './helpers/messages';
import { endpointFor } from './helpers/webhooks';

/**
 * "Test everything" over the API (docs/decisions/rehearsal.md): the owner's TEST copies, the gaps, that nothing
 * real changes, the rate limit held by the insert, and that a rehearsal is its owner's alone. The step-by-step
 * match with the real engine is rehearsal-engine.test.ts.
 */
type Persona = Awaited<ReturnType<typeof signedInUser>>;

/** An owner told by email, SMS and push, whose phone is not verified and who has no push device, with something at stake. */
async function ownerWithGaps() {
  const owner = await signedInUser();
  const recipient = await signedInUser();
  const guardian = await signedInUser();
  await env.DB.prepare('UPDATE users SET phone_e164 = ?, phone_verified_at = ? WHERE id = ?').bind('+14155550142', Date.now(), owner.id).run();
  await saveNotifyPreferences(servicesAt(Date.now()), owner.id, {
    ...DEFAULT_NOTIFY_PREFERENCES,
    methods: ['email', 'sms', 'push'],
    quiet_hours: { start: '00:00', end: '00:00' },
  });
  await env.DB.prepare('UPDATE users SET phone_verified_at = NULL WHERE id = ?').bind(owner.id).run();
  const canary = await createCanaryFor(owner.token, { interval_seconds: 3600, name: 'Hourly' });
  const message = await createMessageFor(owner.token, {
    recipient_user_id: recipient.id,
    rules: [{ trigger_type: 'missed_checkins', trigger_value: 1, expire_window: 1 }],
  });
  await guardianOf(owner, guardian);
  const hook = await endpointFor(owner, `rehearsal-api-${owner.id}`);
  // The state a rehearsal must leave as it was is the settled one: the object writes into D1 now what its
  // queued projection after the create would write later (as the engine does before any decision).
  await settleCanaries(env, [canary.id], null, { events: true });
  return { owner, recipient, guardian, canary, message, hook };
}

const outboxTo = async (userId: string) =>
  (
    await env.DB.prepare('SELECT channel, address, subject, text FROM outbox_messages WHERE recipient_user_id = ? ORDER BY created_at, rowid')
      .bind(userId)
      .all<{ channel: string; address: string; subject: string; text: string }>()
  ).results;

/** Everything the engine writes for an owner, counted, and the canary's clock: a rehearsal must leave all of it as it was. */
async function realState(owner: Persona, canaryId: string, messageId: string, webhookId: string) {
  const count = async (sql: string, ...params: unknown[]) =>
    (await env.DB.prepare(sql)
      .bind(...params)
      .first<{ n: number }>())!.n;
  return {
    canary: await env.DB.prepare('SELECT last_check_in, timer_due_at, active FROM canaries WHERE id = ?').bind(canaryId).first(),
    alarm: await runInDurableObject(clockOf(env, canaryId), async (_instance, state) => state.storage.getAlarm()),
    transitions: await count('SELECT count(*) AS n FROM canary_transitions WHERE canary_id = ?', canaryId),
    message: await env.DB.prepare('SELECT status, armed_at, cancel_deadline, released_at FROM messages WHERE id = ?').bind(messageId).first(),
    messageTransitions: await count('SELECT count(*) AS n FROM message_transitions WHERE message_id = ?', messageId),
    deliveries: await count('SELECT count(*) AS n FROM deliveries WHERE message_id = ?', messageId),
    ownerNotices: await count('SELECT count(*) AS n FROM owner_notices WHERE user_id = ?', owner.id),
    ladder: await count('SELECT count(*) AS n FROM ladder_transitions WHERE owner_id = ?', owner.id),
    reports: await count('SELECT count(*) AS n FROM death_reports WHERE owner_id = ?', owner.id),
    webhookDeliveries: await count('SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ?', webhookId),
    death: await env.DB.prepare('SELECT death_confirmed_at FROM users WHERE id = ?').bind(owner.id).first(),
  };
}

describe('a rehearsal ("Test everything")', () => {
  it('sends TEST copies on the chosen channels, names each gap, and changes nothing real', async () => {
    const s = await ownerWithGaps();
    const before = await realState(s.owner, s.canary.id, s.message.id, s.hook.id);
    const earlierMail = (await outboxTo(s.owner.id)).length;
    const res = await api('POST', '/api/rehearsal', { token: s.owner.token, json: {} });
    expect(res.status).toBe(201);
    const report = res.data;

    expect(report.steps.map((x: { kind: string }) => x.kind)).toEqual(
      expect.arrayContaining(['warning', 'miss', 'guardians_asked', 'webhook', 'message_armed', 'message_released', 'veto_window_ends']),
    );
    const warning = report.steps.find((x: { kind: string }) => x.kind === 'warning');
    expect(warning.reached).toEqual([{ channel: 'email', address: expect.stringMatching(/^.•••@/), ok: true, note: 'accepted' }]);
    expect(warning.gaps).toEqual([
      'SMS: no verified phone — this warning would not reach you by SMS',
      'push: no device registered — this warning would not reach you by push',
    ]);
    expect(report.gaps).toContain('SMS: no verified phone — this warning would not reach you by SMS');

    const mail = (await outboxTo(s.owner.id)).slice(earlierMail);
    expect(mail.length).toBeGreaterThanOrEqual(3); // the reminder, the miss, the armed message: one copy each
    for (const m of mail) {
      expect(m.subject.startsWith(`${TEST_PREFIX} `)).toBe(true);
      expect(m.text.split('\n')[0]).toBe(TEST_FIRST_LINE);
    }
    expect(mail.map((m) => m.subject)).toEqual(
      expect.arrayContaining([expect.stringContaining('Check in before'), expect.stringContaining('Missed check-in')]),
    );
    // Nobody else was told: they were not opted in.
    expect(await outboxTo(s.recipient.id)).toEqual([]);
    expect(report.others_told).toEqual([]);

    expect(await realState(s.owner, s.canary.id, s.message.id, s.hook.id)).toEqual(before);
  });

  it('tells recipients and guardians who are opted in that it was a rehearsal and nothing was released', async () => {
    const s = await ownerWithGaps();
    const res = await api('POST', '/api/rehearsal', { token: s.owner.token, json: { notify_recipients: true, notify_guardians: true } });
    expect(res.status).toBe(201);
    expect(res.data.others_told).toEqual([
      { who: 'recipient', address: expect.any(String), ok: true, note: 'accepted' },
      { who: 'guardian', address: expect.any(String), ok: true, note: 'accepted' },
    ]);
    for (const who of [s.recipient, s.guardian]) {
      const [m] = (await outboxTo(who.id)).filter((x) => x.subject.startsWith(TEST_PREFIX));
      expect(m?.text).toContain('This is a rehearsal; nothing was released');
    }
  });

  it('runs once per 10 minutes per account, however many ask at once', async () => {
    const owner = await signedInUser();
    const answers = await Promise.all(Array.from({ length: 5 }, () => api('POST', '/api/rehearsal', { token: owner.token, json: {} })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 429, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(500);
    // With no canary, the report says so first.
    expect(answers.find((a) => a.status === 201)!.data.gaps[0]).toMatch(/no active canary/);
  });

  it('is shown to its owner only: the list newest first, another account gets 404', async () => {
    const owner = await signedInUser();
    const outsider = await signedInUser();
    const first = await api('POST', '/api/rehearsal', { token: owner.token, json: {} });
    await env.DB.prepare('UPDATE rehearsals SET created_at = created_at - 3600000 WHERE id = ?').bind(first.data.id).run();
    const second = await api('POST', '/api/rehearsal', { token: owner.token, json: {} });
    expect(second.status).toBe(201);
    const list = await api('GET', '/api/rehearsal', { token: owner.token });
    expect(list.data.rehearsals.map((r: { id: string }) => r.id)).toEqual([second.data.id, first.data.id]);
    expect((await api('GET', `/api/rehearsal/${first.data.id}`, { token: owner.token })).data).toMatchObject({ id: first.data.id, status: 'done' });
    expect((await api('GET', `/api/rehearsal/${first.data.id}`, { token: outsider.token })).status).toBe(404);
    expect((await api('GET', '/api/rehearsal', { token: outsider.token })).data.rehearsals).toEqual([]);
  });
});
