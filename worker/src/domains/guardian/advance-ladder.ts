import { appOrigin } from '../../lib/app-origin';
import type { DeathConfirmedJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { settleCheckInsOf } from '../canary/settle-check-ins';
import { deathFlagStatement } from '../messages/release/set-death-confirmed';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { enqueueGuardianNotices, noticeToActiveGuardians } from './guardian-notices';
import { returnedIds } from '../../lib/db-batch';
import { holdUntil, ifRecorded, personName, readable, recordStep } from './ladder-records';

/** Bound on steps per run (halfway, the settle, then confirm, for a real and a sandbox report): a bug cannot spin. */
const MAX_STEPS = 8;
/**
 * A halfway reminder recorded later than this (our outage: a lost timer, a down reconciler) moves the
 * window's end to at least half a window after it, so the owner always has half a window between the
 * reminder and the confirmation — the canary engine's "our outage never becomes a false release".
 */
export const HALFWAY_LATE_MS = 15 * 60_000;

interface OpenReport {
  id: string;
  sandbox: number;
  opened_at: number;
  window_opened_at: number;
  window_ends_at: number;
  halfway_at: number;
  halfway_sent_at: number | null;
  timer_due_at: number | null;
}

/** When a report's window ends if the halfway reminder is recorded at `now` (the late rule above). */
export const windowEndAfterHalfway = (r: Pick<OpenReport, 'window_opened_at' | 'window_ends_at' | 'halfway_at'>, now: number) =>
  now > r.halfway_at + HALFWAY_LATE_MS ? Math.max(r.window_ends_at, now + Math.floor((r.window_ends_at - r.window_opened_at) / 2)) : r.window_ends_at;

/**
 * Brings the owner's open reports up to `now` for everything time decides (docs/decisions/guardian-ladder.md
 * steps 2 and 4): the halfway reminder, then at the window's end — unrefuted, and not while a hold is in
 * force — the confirmation. Safe to run any number of times, from the GuardianClock (alarm or sync), the
 * reconciler or a test: each step is a compare-and-set. Returns when the owner next needs the clock.
 */
export async function advanceLadder(
  ctx: ServiceContext,
  ownerId: string,
  by: 'alarm' | 'direct' | 'reconciler',
): Promise<{ nextWakeAt: Date | null; confirmed: string[] }> {
  const db = ctx.env.DB;
  const confirmed: string[] = [];
  let settled = false;
  for (let step = 0; step < MAX_STEPS; step++) {
    const now = ctx.now().getTime();
    const { results: reports } = await db
      .prepare(
        `SELECT id, sandbox, opened_at, window_opened_at, window_ends_at, halfway_at, halfway_sent_at, timer_due_at
         FROM death_reports WHERE owner_id = ?1 AND status = 'open' AND window_opened_at IS NOT NULL`,
      )
      .bind(ownerId)
      .all<OpenReport>();
    if (!reports.length) return { nextWakeAt: null, confirmed };
    const hold = (await holdUntil(ctx, ownerId, now)) ?? 0;

    const due = reports.filter((r) => r.halfway_sent_at != null && r.window_ends_at <= now && hold <= now);
    if (due.length && !settled) {
      // The canaries' objects hold the check-ins; D1 may not have the latest yet (its projection still on the
      // queue, or lost with the isolate that answered it). A check-in after the report refutes it: make D1
      // agree first, then look again (docs/decisions/canary-engine.md) — as the release engine does before a
      // window ends.
      await settleCheckInsOf(ctx, ownerId, Math.min(...due.map((r) => r.opened_at)));
      settled = true;
      continue;
    }
    let moved = false;
    for (const r of reports) {
      if (r.halfway_sent_at == null && r.halfway_at <= now) {
        await sendHalfwayReminder(ctx, ownerId, r, now);
        moved = true;
      } else if (due.includes(r)) {
        if (await confirmDeath(ctx, ownerId, r, now)) confirmed.push(r.id);
        moved = true;
      }
    }
    if (moved) continue;

    let next: number | null = null;
    for (const r of reports) {
      const due = r.halfway_sent_at == null ? r.halfway_at : Math.max(r.window_ends_at, hold);
      if (next == null || due < next) next = due;
    }
    // Only the owner's GuardianClock arms an alarm for `next`, so only it records the timer.
    if (by === 'alarm' && reports.some((r) => r.timer_due_at !== next)) {
      await db
        .prepare(`UPDATE death_reports SET timer_due_at = ?2 WHERE owner_id = ?1 AND status = 'open' AND window_opened_at IS NOT NULL`)
        .bind(ownerId, next)
        .run();
    }
    return { nextWakeAt: next == null ? null : new Date(next), confirmed };
  }
  return { nextWakeAt: new Date(ctx.now().getTime() + 1000), confirmed };
}

async function ownerName(ctx: ServiceContext, ownerId: string) {
  const u = await ctx.env.DB.prepare('SELECT display_name, email FROM users WHERE id = ?').bind(ownerId).first<{ display_name: string; email: string }>();
  return u ? personName(u) : 'The owner';
}

/** The owner is told again at the window's halfway point, on every channel (an urgent notice). */
async function sendHalfwayReminder(ctx: ServiceContext, ownerId: string, r: OpenReport, now: number) {
  // The owner reads this notice in their own zone (their profile's), named in the text.
  const zone = (await ctx.env.DB.prepare('SELECT time_zone FROM users WHERE id = ?').bind(ownerId).first<{ time_zone: string }>())?.time_zone;
  const db = ctx.env.DB;
  const endsAt = windowEndAfterHalfway(r, now);
  const step = recordStep(
    db,
    {
      ownerId,
      kind: 'veto_halfway',
      actor: 'system',
      cause: 'halfway',
      detail: `ends ${readable(endsAt)}`,
      reportId: r.id,
      dedupeKey: `halfway:${r.id}`,
      at: now,
    },
    { sql: 'WHERE changes() = 1' },
  );
  const noticeId = crypto.randomUUID();
  const sandbox = r.sandbox === 1;
  await db.batch([
    db
      .prepare(`UPDATE death_reports SET halfway_sent_at = ?2, window_ends_at = ?3 WHERE id = ?1 AND status = 'open' AND halfway_sent_at IS NULL`)
      .bind(r.id, now, endsAt),
    step.statement,
    insertOwnerNotice(
      db,
      {
        id: noticeId,
        userId: ownerId,
        kind: 'veto_halfway',
        subject: `${sandbox ? '[Sandbox] ' : ''}Reminder: your death was reported — check in before ${readable(endsAt, zone)}`,
        text: [
          `Your death was reported on Afterword and nobody has refuted it yet. Half of the waiting period has passed.`,
          `If you are alive, check in before ${readable(endsAt, zone)}: any check-in cancels the report at once. Otherwise your death will be confirmed and the messages you set to go after your death will start on their way.`,
          `Check in: ${appOrigin(ctx.env)}/app`,
          ...(sandbox ? ['This report was made with a sandbox API key: it is a rehearsal and will never mark you as dead.'] : []),
        ].join('\n\n'),
        link: null,
        at: now,
        outboxOnly: sandbox,
      },
      ifRecorded(step.id),
    ),
  ]);
  await enqueueOwnerNotice(ctx, noticeId);
}

/**
 * The confirmation: one D1 batch whose first statement is the compare-and-set (open, window ended, halfway
 * told, no hold in force at `now`), then — each only if that won — the `death_confirmed` step, the death
 * flag (real reports only: a sandbox report never sets it) and the guardians' notices. Then the
 * `death_confirmed` job does what follows (releases, webhook); the reconciler re-runs it if it was lost.
 */
async function confirmDeath(ctx: ServiceContext, ownerId: string, r: OpenReport, now: number): Promise<boolean> {
  const db = ctx.env.DB;
  const sandbox = r.sandbox === 1;
  const step = recordStep(
    db,
    {
      ownerId,
      kind: 'death_confirmed',
      actor: 'system',
      cause: 'veto_window_ended',
      detail: sandbox ? 'sandbox: the death flag is not set' : null,
      reportId: r.id,
      dedupeKey: `confirmed:${r.id}`,
      at: now,
    },
    { sql: 'WHERE changes() = 1' },
  );
  const name = await ownerName(ctx, ownerId);
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `UPDATE death_reports SET status = 'confirmed', closed_at = ?2
         WHERE id = ?1 AND status = 'open' AND halfway_sent_at IS NOT NULL AND window_ends_at <= ?2
           AND NOT EXISTS (SELECT 1 FROM guardian_holds WHERE owner_id = ?3 AND ended_at IS NULL AND until > ?2)`,
      )
      .bind(r.id, now, ownerId),
    step.statement,
    ...(sandbox ? [] : [deathFlagStatement(db, ownerId, now, { sql: 'EXISTS (SELECT 1 FROM ladder_transitions WHERE id = ?)', params: [step.id] })]),
    noticeToActiveGuardians(
      db,
      ownerId,
      {
        kind: 'death_confirmed',
        subject: `${sandbox ? '[Sandbox] ' : ''}${name}'s death was confirmed`,
        text: `Nobody refuted the report of ${name}'s death within the waiting period, so Afterword has confirmed it. What ${name} prepared for after their death is now on its way. Thank you for looking out for them.${sandbox ? '\n\nThis was a rehearsal with a sandbox API key: nothing was released.' : ''}`,
        sandbox,
        at: now,
      },
      { sql: 'EXISTS (SELECT 1 FROM ladder_transitions WHERE id = ?)', params: [step.id] },
    ),
  ];
  const results = await db.batch(statements);
  if (results[0]!.meta.changes !== 1) return false;
  log.info('death confirmed', { owner_id: ownerId, report_id: r.id, sandbox, late_ms: now - r.window_ends_at });
  await enqueueGuardianNotices(ctx, returnedIds(results.slice(-1)));
  try {
    await ctx.env.JOBS.send({ type: 'death_confirmed', report_id: r.id } satisfies DeathConfirmedJob, { contentType: 'json' });
  } catch (err) {
    log.error('enqueue failed; the reconciler will finish the confirmation', { queue: 'JOBS', type: 'death_confirmed', error: String(err) });
  }
  return true;
}
