import { LIVE_GUARDIAN_STATUSES } from '../../contracts/guardian';
import { schema } from '@afterword/db';
import type { DeathReport, User } from '@afterword/db/schema';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { LadderStage, TDeathReportView, TGuardedOwnerView, TGuardianSettings, TLadderView } from '../../contracts/guardian';
import type { ServiceContext } from '../../env';
import { guardianActor, holdUntil, isMissing, loadSettings, personName, readable } from './ladder-records';
import { DEATH_RULE_TYPES } from '../messages/release/schedule';

const iso = (d: Date | null) => d?.toISOString() ?? null;

async function votesOf(ctx: ServiceContext, reportId: string): Promise<number> {
  const row = await ctx.env.DB.prepare(
    `SELECT (SELECT count(*) FROM death_report_votes v JOIN guardians g ON g.id = v.guardian_id WHERE v.report_id = ?1 AND g.status = 'active')
          + (SELECT count(*) FROM death_report_votes WHERE report_id = ?1 AND key_id IS NOT NULL) AS votes`,
  )
    .bind(reportId)
    .first<{ votes: number }>();
  return row?.votes ?? 0;
}

async function toReportView(ctx: ServiceContext, r: DeathReport | undefined, quorum: number): Promise<TDeathReportView | null> {
  if (!r) return null;
  return {
    id: r.id,
    status: r.status,
    sandbox: r.sandbox,
    opened_at: r.opened_at.toISOString(),
    votes: await votesOf(ctx, r.id),
    quorum,
    window_opened_at: iso(r.window_opened_at),
    window_ends_at: iso(r.window_ends_at),
    halfway_at: iso(r.halfway_at),
    closed_at: iso(r.closed_at),
  };
}

export interface LadderState {
  stage: LadderStage;
  settings: TGuardianSettings;
  guardians: { active: number; invited: number };
  missed: boolean;
  report: TDeathReportView | null;
  sandbox_report: TDeathReportView | null;
  hold_until: string | null;
  death_confirmed_at: string | null;
  /** ms, for "what happens next". */
  raw: { report: DeathReport | undefined; holdUntil: number | null };
}

/**
 * Where the owner's ladder stands at `now`, from the rows alone (the one timeline of
 * docs/server-rules.md "Guardians and death confirmation"): the owner's view, the guardians' view and the
 * answers all read it. The stages in order: watching (or no_guardians), missed, reported (votes below the
 * quorum), veto_window (or on_hold: the window ended while a hold is in force), confirmed.
 */
export async function ladderStateFor(ctx: ServiceContext, owner: User, now: number): Promise<LadderState> {
  const settings = await loadSettings(ctx, owner.id);
  const [guardianRows, reports, missed, hold] = await Promise.all([
    ctx.db
      .select({ status: schema.guardians.status })
      .from(schema.guardians)
      .where(and(eq(schema.guardians.owner_id, owner.id), inArray(schema.guardians.status, [...LIVE_GUARDIAN_STATUSES]))),
    ctx.db.select().from(schema.deathReports).where(eq(schema.deathReports.owner_id, owner.id)).orderBy(desc(schema.deathReports.opened_at)).limit(20),
    isMissing(ctx, owner.id, now),
    holdUntil(ctx, owner.id, now),
  ]);
  const real = reports.filter((r) => !r.sandbox);
  const report = real.find((r) => r.status === 'open') ?? real[0];
  const sandboxOpen = reports.find((r) => r.sandbox && r.status === 'open');
  const active = guardianRows.filter((g) => g.status === 'active').length;
  let stage: LadderStage;
  if (owner.death_confirmed_at) stage = 'confirmed';
  else if (report?.status === 'open' && report.window_ends_at) stage = hold && report.window_ends_at.getTime() <= hold ? 'on_hold' : 'veto_window';
  else if (report?.status === 'open') stage = 'reported';
  else if (missed) stage = 'missed';
  else stage = active ? 'watching' : 'no_guardians';
  return {
    stage,
    settings,
    guardians: { active, invited: guardianRows.length - active },
    missed,
    report: await toReportView(ctx, report, settings.quorum),
    sandbox_report: await toReportView(ctx, sandboxOpen, settings.quorum),
    hold_until: hold ? new Date(hold).toISOString() : null,
    death_confirmed_at: iso(owner.death_confirmed_at),
    raw: { report, holdUntil: hold },
  };
}

/**
 * Open messages of the owner with a rule waiting for a confirmed death — vault items among them (a vault
 * item is a message with `vault_item_id`) — and their distinct recipients.
 */
async function wouldRelease(ctx: ServiceContext, ownerId: string) {
  const row = await ctx.env.DB.prepare(
    `SELECT count(*) - count(vault_item_id) AS messages, count(vault_item_id) AS vault_items, count(DISTINCT recipient_user_id) AS people FROM messages
     WHERE sender_id = ?1 AND status IN ('scheduled', 'armed')
       AND EXISTS (SELECT 1 FROM json_each(messages.rules) WHERE json_extract(value, '$.trigger_type') IN (${DEATH_RULE_TYPES.map((t) => `'${t}'`).join(', ')}))`,
  )
    .bind(ownerId)
    .first<{ messages: number; vault_items: number; people: number }>();
  return { messages: row?.messages ?? 0, vault_items: row?.vault_items ?? 0, people: row?.people ?? 0 };
}

/** "3 messages and 1 vault item", "2 vault items", "0 messages". */
function whatWouldRelease({ messages, vault_items }: { messages: number; vault_items: number }) {
  const parts = [messages || !vault_items ? plural(messages, 'message', 'messages') : '', vault_items ? plural(vault_items, 'vault item', 'vault items') : ''];
  return parts.filter(Boolean).join(' and ');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** GET /api/guardian/ladder: the owner's ladder, what happens next and when, and its last 50 steps. */
export async function getLadderView(ctx: ServiceContext, owner: User): Promise<TLadderView> {
  const now = ctx.now().getTime();
  const state = await ladderStateFor(ctx, owner, now);
  const release = await wouldRelease(ctx, owner.id);
  const transitions = await ctx.db
    .select()
    .from(schema.ladderTransitions)
    .where(eq(schema.ladderTransitions.owner_id, owner.id))
    .orderBy(desc(schema.ladderTransitions.at), desc(schema.ladderTransitions.id))
    .limit(50);
  const r = state.raw.report;
  let next: TLadderView['next'] = null;
  if (r?.status === 'open' && r.window_ends_at && r.halfway_at) {
    if (!r.halfway_sent_at) next = { at: r.halfway_at.toISOString(), what: 'veto_halfway' };
    else {
      const hold = state.raw.holdUntil ?? 0;
      next =
        hold > r.window_ends_at.getTime()
          ? { at: new Date(hold).toISOString(), what: 'hold_ends' }
          : { at: r.window_ends_at.toISOString(), what: 'death_confirmed' };
    }
  }
  const releases = `${whatWouldRelease(release)} to ${plural(release.people, 'person', 'people')}`;
  const summaries: Record<LadderStage, () => string> = {
    no_guardians: () =>
      'You have no active guardian: after a missed check-in nobody is asked about you, and only an API key with the death-verification scope can report a death.',
    watching: () =>
      `${plural(state.guardians.active, 'guardian watches', 'guardians watch')} over you. They are asked about you after ${plural(state.settings.ask_after_misses, 'missed check-in', 'missed check-ins')}.`,
    missed: () => 'You missed a check-in. Check in now: your guardians may be asked whether they have heard from you.',
    reported: () => `Your death was reported by ${state.report!.votes} of the ${state.settings.quorum} guardians needed. Check in to refute it.`,
    veto_window: () =>
      `Your death was reported. If nobody refutes it by ${readable(r!.window_ends_at!.getTime())} (any check-in does), it will be confirmed and ${releases} will start on their way.`,
    on_hold: () =>
      `Your death was reported and its waiting period has ended, but a guardian asked to hold until ${readable(state.raw.holdUntil!)}. Check in to refute it; otherwise it will then be confirmed and ${releases} will start on their way.`,
    confirmed: () => `Your death was confirmed on ${readable(owner.death_confirmed_at!.getTime())}. Messages set to go after your death are on their way.`,
  };
  const { raw: _raw, ...view } = state;
  return {
    ...view,
    would_release: release,
    next,
    summary: summaries[state.stage](),
    transitions: transitions.map((t) => ({ at: t.at.toISOString(), kind: t.kind, actor: t.actor, cause: t.cause, detail: t.detail, report_id: t.report_id })),
  };
}

/**
 * GET /api/guardian/owners: the people who chose the caller (active guardianships), each with their
 * ladder state and the caller's own answers — never messages, vault items, recipients or activity.
 */
export async function listGuardedOwners(ctx: ServiceContext, user: User): Promise<TGuardedOwnerView[]> {
  const now = ctx.now().getTime();
  const rows = await ctx.db
    .select({ g: schema.guardians, owner: schema.users })
    .from(schema.guardians)
    .innerJoin(schema.users, eq(schema.users.id, schema.guardians.owner_id))
    .where(and(eq(schema.guardians.guardian_user_id, user.id), eq(schema.guardians.status, 'active')))
    .orderBy(desc(schema.guardians.responded_at));
  const out: TGuardedOwnerView[] = [];
  for (const { g, owner } of rows) {
    const state = await ladderStateFor(ctx, owner, now);
    const answers = await ctx.db
      .select({ at: schema.ladderTransitions.at, kind: schema.ladderTransitions.kind })
      .from(schema.ladderTransitions)
      .where(and(eq(schema.ladderTransitions.owner_id, owner.id), eq(schema.ladderTransitions.actor, guardianActor(g.id))))
      .orderBy(desc(schema.ladderTransitions.at))
      .limit(20);
    out.push({
      id: g.id,
      owner_name: personName(owner),
      owner_email: owner.email,
      since: iso(g.responded_at),
      missed: state.missed,
      stage: state.stage === 'no_guardians' ? 'watching' : state.stage,
      report: state.report,
      hold_until: state.hold_until,
      death_confirmed_at: state.death_confirmed_at,
      my_answers: answers.map((a) => ({ at: a.at.toISOString(), kind: a.kind })),
    });
  }
  return out;
}
