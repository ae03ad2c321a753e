import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { reconcileReleases } from '../src/domains/messages/reconcile-releases';
import { loadEngineMessage } from '../src/domains/messages/release/load-message';
import { needsClockSql, nextWakeAt } from '../src/domains/messages/release/schedule';
import { signedInUser } from './helpers/api';
import { createCanaryFor, servicesAt } from './helpers/canary';
import { confirmDeathDirectly } from './helpers/guardian';
import { captureQueues, createMessageFor, transitionCauses } from './helpers/messages';

/**
 * The release reconciler at scale (worker/src/domains/messages/reconcile-releases.ts): most open messages wait for
 * a canary event or a death and have no timer, and they must not hide the few whose clock was lost. Found by the
 * simulation at 1,000 people: past 200 such messages, no lost release timer was repaired, and releases were missed
 * for good. Its own workerd: the reconciler reads every account's messages.
 */
const HOUR = 3_600_000;
const missedRule = { trigger_type: 'missed_checkins', trigger_value: 2, expire_window: 1 };

/** `count` copies of the message `id` (new ids, same sender and rules): rows that need no clock, as many as wanted. */
async function copiesOf(id: string, count: number) {
  const { results } = await env.DB.prepare('SELECT name FROM pragma_table_info(?)').bind('messages').all<{ name: string }>();
  const columns = results.map((c) => c.name).filter((c) => c !== 'id');
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO messages (id, ${columns.join(', ')}) SELECT 'copy-' || ?1 || '-' || i, ${columns.join(', ')} FROM n, messages WHERE id = ?1`,
  )
    .bind(id, count)
    .run();
}

/** A rule-less message whose clock was lost: its alarm gone, and (`missing`) no timer recorded; its time came an hour ago. */
async function lostClockMessage(token: string, recipientId: string, missing: boolean) {
  const m = await createMessageFor(token, { recipient_user_id: recipientId, deliver_at: new Date(Date.now() + 24 * HOUR).toISOString() });
  await runInDurableObject(env.RELEASE_CLOCK.get(env.RELEASE_CLOCK.idFromName(m.id)), (_, state) => state.storage.deleteAlarm());
  const due = Date.now() - HOUR;
  await env.DB.prepare('UPDATE messages SET deliver_at = ?2, timer_due_at = ?3 WHERE id = ?1')
    .bind(m.id, due, missing ? null : due)
    .run();
  return m;
}

/** An owner with a canary and 250 messages waiting for its misses (no clock), and someone they write to. */
async function behindWaitingMessages() {
  const owner = await signedInUser();
  const recipient = await signedInUser();
  await createCanaryFor(owner.token);
  const waiting = await createMessageFor(owner.token, { recipient_user_id: recipient.id, rules: [missedRule] });
  await copiesOf(waiting.id, 250);
  return { owner, recipient };
}

describe('the release reconciler, behind many messages that need no clock', () => {
  it('repairs a message whose timer was never recorded, past 200 that wait for a canary event', async () => {
    const { owner, recipient } = await behindWaitingMessages();
    const lost = await lostClockMessage(owner.token, recipient.id, true);
    const { result } = await captureQueues(() => reconcileReleases(servicesAt(Date.now()), { lostEvents: false, missingTimers: true }));
    expect(result.timers, 'only the message that needs a clock').toBe(1);
    expect(await transitionCauses(lost.id)).toContain('scheduled→releasing:deliver_at');
  });

  it('repairs an overdue timer every minute, past 200 that have none', async () => {
    const { owner, recipient } = await behindWaitingMessages();
    const lost = await lostClockMessage(owner.token, recipient.id, false);
    const { result } = await captureQueues(() => reconcileReleases(servicesAt(Date.now()), { lostEvents: false, missingTimers: false }));
    expect(result.timers).toBe(1);
    expect(await transitionCauses(lost.id)).toContain('scheduled→releasing:deliver_at');
  });
});

describe('the release reconciler, behind many messages still being delivered', () => {
  it('settles a message whose deliveries all finished, past 200 whose deliveries are still under way', async () => {
    const owner = await signedInUser();
    const recipient = await signedInUser();
    const releasedNow = async () => {
      const m = await lostClockMessage(owner.token, recipient.id, false);
      await captureQueues(() => reconcileReleases(servicesAt(Date.now()), { lostEvents: false, missingTimers: false }));
      expect(await transitionCauses(m.id)).toContain('scheduled→releasing:deliver_at');
      return m;
    };
    // Released, its email delivery still to be tried (a provider down): and 250 like it.
    const underWay = await releasedNow();
    await copiesOf(underWay.id, 250);
    await env.DB.prepare(
      `INSERT INTO deliveries (id, message_id, channel, status, attempts, next_attempt_at, created_at, updated_at)
       SELECT 'delivery-' || m.id, m.id, d.channel, d.status, d.attempts, d.next_attempt_at, d.created_at, d.updated_at
       FROM messages m, deliveries d WHERE m.id LIKE 'copy-' || ?1 || '-%' AND d.message_id = ?1`,
    )
      .bind(underWay.id)
      .run();
    // Released after them, its delivery done, and the settle that should have followed lost (a crash).
    const delivered = await releasedNow();
    await env.DB.prepare("UPDATE deliveries SET status = 'delivered' WHERE message_id = ?").bind(delivered.id).run();
    const old = Date.now() - 10 * 60_000;
    await env.DB.prepare("UPDATE messages SET updated_at = ?1, timer_due_at = NULL WHERE status = 'releasing'").bind(old).run();
    await captureQueues(() => reconcileReleases(servicesAt(Date.now()), { lostEvents: false, missingTimers: false }));
    expect(await transitionCauses(delivered.id)).toContain('releasing→delivered:delivered');
  });
});

describe('which open messages need a clock (needsClockSql)', () => {
  it('says what nextWakeAt says, for every kind of rule, spent or not, with the death confirmed or not', async () => {
    const recipient = await signedInUser();
    const ids: string[] = [];
    for (const dead of [false, true]) {
      const owner = await signedInUser();
      await createCanaryFor(owner.token);
      const soon = new Date(Date.now() + 24 * HOUR).toISOString();
      const make = async (rules: unknown[]) => (await createMessageFor(owner.token, { recipient_user_id: recipient.id, deliver_at: soon, rules })).id;
      ids.push(
        await make([]),
        await make([missedRule]),
        await make([{ trigger_type: 'fixed_date', trigger_value: new Date(Date.now() + 48 * HOUR).toISOString(), expire_window: 0 }]),
        await make([{ trigger_type: 'delay_after_death', trigger_value: 3, expire_window: 1 }]),
        await make([missedRule, { trigger_type: 'delay_after_death', trigger_value: 0, expire_window: 0 }]),
      );
      // A fixed date already fired (spent), and a message armed with its window's end.
      const spent = await make([{ trigger_type: 'fixed_date', trigger_value: new Date(Date.now() + 48 * HOUR).toISOString(), expire_window: 2 }]);
      await env.DB.prepare("UPDATE messages SET rules = json_set(rules, '$[0].fired_at', ?2) WHERE id = ?1").bind(spent, new Date().toISOString()).run();
      const armed = await make([missedRule]);
      await env.DB.prepare("UPDATE messages SET status = 'armed', armed_at = ?2, cancel_deadline = ?3 WHERE id = ?1")
        .bind(armed, Date.now(), Date.now() + 24 * HOUR)
        .run();
      ids.push(spent, armed);
      if (dead) await confirmDeathDirectly(owner.id, Date.now());
    }
    const { results } = await env.DB.prepare(
      `SELECT m.id, ${needsClockSql('m', 'u')} AS needs FROM messages m JOIN users u ON u.id = m.sender_id WHERE m.id IN (${ids.map(() => '?').join(', ')})`,
    )
      .bind(...ids)
      .all<{ id: string; needs: number }>();
    const bySql = new Map(results.map((r) => [r.id, r.needs === 1]));
    const ctx = servicesAt(Date.now());
    const byCode = new Map<string, boolean>();
    for (const id of ids) {
      const loaded = (await loadEngineMessage(ctx, id))!;
      byCode.set(id, nextWakeAt(loaded.message, loaded.deathConfirmedAt) != null);
    }
    expect(bySql).toEqual(byCode);
    // Both kinds are there: the comparison is not of all-false lists.
    expect(new Set(byCode.values())).toEqual(new Set([true, false]));
  });
});
