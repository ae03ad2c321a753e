import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/*
 * The guardian ladder (docs/decisions/guardian-ladder.md): from a missed check-in to a confirmed death.
 * D1 is the record; a GuardianClock Durable Object per owner only decides when to look.
 */

export const GUARDIAN_STATUSES = ['invited', 'active', 'declined', 'revoked', 'resigned'] as const;
export const DEATH_REPORT_STATUSES = ['open', 'confirmed', 'refuted'] as const;

/**
 * A person an owner asked to vouch. `invited → active | declined`, `revoked` by the owner, `resigned` by the
 * guardian. Only the SHA-256 of the 256-bit invitation token is stored, and only until it is answered.
 * One live row per (owner, email), and one active row per (owner, guardian account): one person is one
 * vote, whatever address the invitation reached them at.
 */
export const guardians = sqliteTable(
  'guardians',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Trimmed and lower-cased, as typed by the owner. */
    email: text('email').notNull(),
    /** The account that accepted (or declined); null while invited. */
    guardian_user_id: text('guardian_user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: GUARDIAN_STATUSES }).notNull(),
    invite_token_hash: text('invite_token_hash').unique(),
    invited_at: integer('invited_at', { mode: 'timestamp_ms' }).notNull(),
    responded_at: integer('responded_at', { mode: 'timestamp_ms' }),
    ended_at: integer('ended_at', { mode: 'timestamp_ms' }),
    /**
     * The invitation call's `idempotency_key` and a SHA-256 digest of its input, when it sent one: the same call sent
     * again answers with this invitation instead of "already invited" (docs/decisions/create-retries.md).
     */
    create_key: text('create_key'),
    create_digest: text('create_digest'),
  },
  (t) => [
    // The key is unique per owner in the write itself.
    uniqueIndex('guardians_create_key').on(t.owner_id, t.create_key).where(sql`${t.create_key} IS NOT NULL`),
    uniqueIndex('guardians_live_email').on(t.owner_id, t.email).where(sql`status IN ('invited', 'active')`),
    uniqueIndex('guardians_active_account').on(t.owner_id, t.guardian_user_id).where(sql`status = 'active'`),
    index('guardians_owner_idx').on(t.owner_id, t.status),
    index('guardians_account_idx').on(t.guardian_user_id, t.status),
  ],
);

/** Per owner; no row = the defaults (quorum 1, 72 h, asked after 1 miss). */
export const guardianSettings = sqliteTable('guardian_settings', {
  owner_id: text('owner_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  quorum: integer('quorum').notNull().default(1),
  veto_window_hours: integer('veto_window_hours').notNull().default(72),
  ask_after_misses: integer('ask_after_misses').notNull().default(1),
  updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * A reported death. `open` while votes gather (`window_opened_at` null) and while its veto window runs;
 * then `confirmed` (the window passed unrefuted, not on hold) or `refuted` (the owner checked in). At most
 * one open report per (owner, sandbox): a sandbox key's report never blocks or touches a real one.
 */
export const deathReports = sqliteTable(
  'death_reports',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: DEATH_REPORT_STATUSES }).notNull(),
    /** Made by a sandbox API key: notices to the outbox only, webhooks marked, the death flag never set. */
    sandbox: integer('sandbox', { mode: 'boolean' }).notNull().default(false),
    /** The first reporter: `guardian:<id>` or `key:<id>`. */
    opened_by: text('opened_by').notNull(),
    opened_at: integer('opened_at', { mode: 'timestamp_ms' }).notNull(),
    window_opened_at: integer('window_opened_at', { mode: 'timestamp_ms' }),
    window_ends_at: integer('window_ends_at', { mode: 'timestamp_ms' }),
    halfway_at: integer('halfway_at', { mode: 'timestamp_ms' }),
    halfway_sent_at: integer('halfway_sent_at', { mode: 'timestamp_ms' }),
    /** Confirmed or refuted. */
    closed_at: integer('closed_at', { mode: 'timestamp_ms' }),
    /** After confirmation: releases fired and the webhook queued (the reconciler finishes what a crash left). */
    effects_done_at: integer('effects_done_at', { mode: 'timestamp_ms' }),
    /** When the owner's GuardianClock last armed its alarm for; null = no timer known. */
    timer_due_at: integer('timer_due_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('death_reports_one_open').on(t.owner_id, t.sandbox).where(sql`status = 'open'`),
    index('death_reports_owner_idx').on(t.owner_id, t.opened_at),
    index('death_reports_timer_idx').on(t.status, t.timer_due_at),
  ],
);

/** One vote per guardian (or key) per report: the same guardian twice counts once. */
export const deathReportVotes = sqliteTable(
  'death_report_votes',
  {
    id: text('id').primaryKey(),
    report_id: text('report_id')
      .notNull()
      .references(() => deathReports.id, { onDelete: 'cascade' }),
    guardian_id: text('guardian_id').references(() => guardians.id, { onDelete: 'cascade' }),
    /** An API key with webhook:death-verification (kept as text: a revoked key's vote stays recorded). */
    key_id: text('key_id'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('death_report_votes_guardian').on(t.report_id, t.guardian_id),
    uniqueIndex('death_report_votes_key').on(t.report_id, t.key_id),
    // A deleted guardianship's votes, holds and notices are found through an index of each (docs/performance.md, "A deletion reads what it deletes").
    index('death_report_votes_guardian_idx').on(t.guardian_id),
  ],
);

/** "Hold N days": death-triggered releases wait until the latest hold ends; a check-in ends every hold. */
export const guardianHolds = sqliteTable(
  'guardian_holds',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    guardian_id: text('guardian_id')
      .notNull()
      .references(() => guardians.id, { onDelete: 'cascade' }),
    until: integer('until', { mode: 'timestamp_ms' }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    ended_at: integer('ended_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('guardian_holds_owner_idx').on(t.owner_id, t.ended_at), index('guardian_holds_guardian_idx').on(t.guardian_id)],
);

/**
 * Every step of the ladder, append-only: what happened (`kind`), who did it (`system`, `owner`,
 * `guardian:<id>`, `key:<id>`), why (`cause`). `dedupe_key` makes a step that may be attempted twice (a
 * redelivered event, a repeated alarm) land once.
 */
export const ladderTransitions = sqliteTable(
  'ladder_transitions',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    actor: text('actor').notNull(),
    cause: text('cause').notNull(),
    detail: text('detail'),
    report_id: text('report_id'),
    dedupe_key: text('dedupe_key'),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('ladder_transitions_once').on(t.owner_id, t.dedupe_key), index('ladder_transitions_owner_idx').on(t.owner_id, t.at)],
);

/**
 * What a guardian is sent (an invitation, "Have you heard from …?", a refutation, a confirmation): written
 * in the batch of the step it reports, sent by the JOBS consumer on the email channel, marked after.
 */
export const guardianNotices = sqliteTable(
  'guardian_notices',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    guardian_id: text('guardian_id')
      .notNull()
      .references(() => guardians.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    link: text('link'),
    sandbox: integer('sandbox', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: ['pending', 'sent'] }).notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sent_at: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('guardian_notices_status_idx').on(t.status, t.created_at),
    index('guardian_notices_owner_idx').on(t.owner_id),
    index('guardian_notices_guardian_idx').on(t.guardian_id),
  ],
);

export type Guardian = typeof guardians.$inferSelect;
export type DeathReport = typeof deathReports.$inferSelect;
export type LadderTransition = typeof ladderTransitions.$inferSelect;
