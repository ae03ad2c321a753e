import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import { deadlineOfStored } from '../../contracts/canary-health';
import { DEFAULT_GUARDIAN_SETTINGS, type TGuardianSettings } from '../../contracts/guardian';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

/*
 * Small shared pieces of the ladder: the errors every guardian route answers with, the owner's settings,
 * how a person is named in what we send, and the SQL that records a step. Steps are raw D1 statements
 * because each one joins the batch of the change it records (one round trip, atomic), and most select
 * their rows inside that batch (INSERT … SELECT), which drizzle's batch cannot express.
 */

export const GUARDIAN_NOT_FOUND = 'Guardian not found';
/** The same 404 for another owner's guardian, a malformed id, and an id that does not exist. */
export const guardianNotFound = () => new AppError('NOT_FOUND', GUARDIAN_NOT_FOUND);
export const INVITATION_INVALID = 'This invitation link is invalid, or it was already answered or withdrawn';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** How the owner is named in what we send (lib/person-label.ts). */
export { PERSON_NAME_SQL, personName } from '../../lib/person-label';

/** A readable UTC instant for texts ("Thu, 14 May 2026, 09:00 UTC"): lib/human-time.ts. */
export { humanTime as readable } from '../../lib/human-time';

export async function loadSettings(ctx: ServiceContext, ownerId: string): Promise<TGuardianSettings> {
  const [row] = await ctx.db.select().from(schema.guardianSettings).where(eq(schema.guardianSettings.owner_id, ownerId)).limit(1);
  return row ? { quorum: row.quorum, veto_window_hours: row.veto_window_hours, ask_after_misses: row.ask_after_misses } : { ...DEFAULT_GUARDIAN_SETTINGS };
}

export interface StepSpec {
  id?: string;
  ownerId: string;
  kind: string;
  actor: string;
  cause: string;
  detail?: string | null;
  reportId?: string | null;
  /** A step that may be attempted twice (a redelivered event, a repeated alarm) lands once per key. */
  dedupeKey?: string | null;
  at: number;
}

/**
 * The INSERT of one ladder transition, for the caller's batch, written only when `when` holds (a SQL
 * tail such as `WHERE changes() = 1`). Returns the statement and the row's id, so later statements can
 * say "only if this step was recorded" (`EXISTS (SELECT 1 FROM ladder_transitions WHERE id = ?)`).
 */
export function recordStep(
  db: D1Database,
  step: StepSpec,
  when: { sql: string; params?: unknown[] } = { sql: '' },
): { statement: D1PreparedStatement; id: string } {
  const id = step.id ?? crypto.randomUUID();
  const statement = db
    .prepare(
      `INSERT OR IGNORE INTO ladder_transitions (id, owner_id, kind, actor, cause, detail, report_id, dedupe_key, at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? ${when.sql}`,
    )
    .bind(
      id,
      step.ownerId,
      step.kind,
      step.actor,
      step.cause,
      step.detail ?? null,
      step.reportId ?? null,
      step.dedupeKey ?? null,
      step.at,
      ...(when.params ?? []),
    );
  return { statement, id };
}

/** "Only if step `id` was recorded in this batch": a SQL tail for recordStep's followers. */
export const ifRecorded = (id: string) => ({ sql: 'WHERE EXISTS (SELECT 1 FROM ladder_transitions WHERE id = ?)', params: [id] });

export const guardianActor = (guardianId: string) => `guardian:${guardianId}`;
export const keyActor = (keyId: string) => `key:${keyId}`;

/**
 * Whether the owner is missing a check-in now: an active canary past its deadline
 * (docs/server-rules.md "Canaries and check-ins"; an interval, a calendar schedule or a pause:
 * contracts/canary-health.ts, so it is read in code rather than SQL).
 */
export async function isMissing(ctx: ServiceContext, ownerId: string, now: number): Promise<boolean> {
  const rows = await ctx.db
    .select({
      last_check_in: schema.canaries.last_check_in,
      interval_seconds: schema.canaries.interval_seconds,
      schedule: schema.canaries.schedule,
      paused_until: schema.canaries.paused_until,
    })
    .from(schema.canaries)
    .where(and(eq(schema.canaries.user_id, ownerId), eq(schema.canaries.active, true)));
  return rows.some((r) => deadlineOfStored(r) <= now);
}

/** The latest end of the owner's holds still in force at `now`, or null. */
export async function holdUntil(ctx: ServiceContext, ownerId: string, now: number): Promise<number | null> {
  const row = await ctx.env.DB.prepare('SELECT max(until) AS until FROM guardian_holds WHERE owner_id = ?1 AND ended_at IS NULL AND until > ?2')
    .bind(ownerId, now)
    .first<{ until: number | null }>();
  return row?.until ?? null;
}
