import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { ServiceContext } from '../../env';
import { scheduleOfRow } from '../canary/canary-view';
import { settleCanaries } from '../canary/canary-timer';
import { cycleDeadlineOf, TRANSITION_COLUMNS, type CanaryFacts, type TransitionRow } from '../canary/plan-wake';
import { loadSettings } from '../guardian/ladder-records';
import { hasConsent } from '../legal/consent-state';
import { loadDeadmanFacts } from './load-deadman-facts';
import type { RehearsalFacts } from './plan-rehearsal';

const recipient = alias(schema.users, 'recipient');

/** The owner's facts the plan needs, read once; the canaries' objects first make D1's copy of their cycle agree. */
export async function loadRehearsalFacts(ctx: ServiceContext, user: User, now: number) {
  const canaries = await ctx.db
    .select()
    .from(schema.canaries)
    .where(and(eq(schema.canaries.user_id, user.id), eq(schema.canaries.active, true)));
  // Settle writes into D1 only what the objects recorded already (idempotent); a failure leaves D1's copy, which may lag.
  await settleCanaries(
    ctx.env,
    canaries.map((c) => c.id),
    null,
    { events: true },
  ).catch(() => undefined);
  const fresh = canaries.length
    ? await ctx.db
        .select()
        .from(schema.canaries)
        .where(
          inArray(
            schema.canaries.id,
            canaries.map((c) => c.id),
          ),
        )
    : [];
  const transitions = fresh.length
    ? await ctx.db
        .select()
        .from(schema.canaryTransitions)
        .where(
          inArray(
            schema.canaryTransitions.canary_id,
            fresh.map((c) => c.id),
          ),
        )
    : [];
  const messages = await ctx.db
    .select({ m: schema.messages, name: recipient.display_name, email: recipient.email, recipientId: recipient.id })
    .from(schema.messages)
    .innerJoin(recipient, eq(recipient.id, schema.messages.recipient_user_id))
    .where(and(eq(schema.messages.sender_id, user.id), inArray(schema.messages.status, ['scheduled', 'armed'])));
  const guardians = await ctx.db
    .select({ email: schema.guardians.email, userId: schema.guardians.guardian_user_id })
    .from(schema.guardians)
    .where(and(eq(schema.guardians.owner_id, user.id), eq(schema.guardians.status, 'active')));
  const settings = await loadSettings(ctx, user.id);
  const webhooks = await ctx.db
    .select({ id: schema.webhooks.id, url: schema.webhooks.url, event: schema.webhooks.event })
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.user_id, user.id), eq(schema.webhooks.status, 'active')));
  const messagesConsent = await hasConsent(ctx, user.id, 'messages');
  const guardianConsent = await hasConsent(ctx, user.id, 'guardian');
  const plan: RehearsalFacts = {
    now,
    canaries: fresh
      .filter((c) => c.active)
      .map((c) => {
        const facts: CanaryFacts = {
          id: c.id,
          user_id: c.user_id,
          name: c.name,
          interval_seconds: c.interval_seconds,
          last_check_in: c.last_check_in.getTime(),
          schedule: scheduleOfRow(c),
          paused_until: c.paused_until?.getTime() ?? null,
        };
        const cycle = cycleDeadlineOf(facts);
        const recorded = transitions.filter((t) => t.canary_id === c.id && Number(t.cycle_deadline) === cycle).map((t) => toRow(t));
        return { facts, recorded };
      }),
    messages: messagesConsent ? messages.map(({ m, name, email }) => ({ ...m, recipient: name?.trim() || email })) : [],
    guardians: { active: guardianConsent ? guardians.length : 0, ...settings },
    deathConfirmedAt: user.death_confirmed_at?.getTime() ?? null,
    webhooks: webhooks.map((w) => ({ ...w, event: w.event as 'missed_checkins' | 'death_confirmed' })),
    deadman: await loadDeadmanFacts(ctx, user.id),
  };
  const recipients = [...new Map(messages.map(({ recipientId, email, name }) => [recipientId, { id: recipientId, email, name }])).values()];
  return {
    plan,
    messagesConsent,
    recipients,
    guardians,
    stakes: { messagesWaiting: messages.filter((m) => m.m.status === 'scheduled').length, guardians: guardians.length },
  };
}

/** A D1 canary_transitions row as the engine's TransitionRow (numbers for instants). */
function toRow(t: Record<string, unknown>): TransitionRow {
  const row: Record<string, unknown> = { canary_id: t.canary_id, user_id: t.user_id };
  for (const c of TRANSITION_COLUMNS) {
    const v = t[c];
    row[c] = v instanceof Date ? v.getTime() : v;
  }
  return row as unknown as TransitionRow;
}
