-- owner_notices stored WITHOUT ROWID, keyed by its id, and owner_notice_deliveries without the owner's index
-- (docs/performance.md, "A warning's notice, a row fewer"): an owner notice was four rows written (the rowid row, its
-- id's key index, the owner's index, the pending index), now three; a delivery two (its row and the owner's index),
-- now one. A delivery's user_id stops being a foreign key: it goes with its notice (the table's key starts with
-- notice_id), which goes with its owner — so an account's deletion still takes both, through indexes — and the export
-- reads deliveries through the owner's notices (worker/src/domains/legal/export/export-plan.ts).
--
-- owner_notices has a child (the deliveries, ON DELETE CASCADE), and D1 keeps foreign keys enforced inside a
-- migration: dropping the old table would delete every delivery of every notice. So the deliveries are first put
-- aside in a table of no keys, both tables dropped (the child first: no cascade runs), the new notices renamed into
-- place, and the deliveries rebuilt referring to them. Written by hand from drizzle-kit's output (drizzle cannot
-- declare WITHOUT ROWID); worker/test/migration-owner-notices-by-key.test.ts applies it to a populated database.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_owner_notices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`link` text,
	`status` text NOT NULL,
	`due_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`outbox_only` integer DEFAULT false NOT NULL,
	`canary_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_owner_notices`("id", "user_id", "kind", "subject", "text", "link", "status", "due_at", "created_at", "sent_at", "outbox_only", "canary_id", "attempts") SELECT "id", "user_id", "kind", "subject", "text", "link", "status", "due_at", "created_at", "sent_at", "outbox_only", "canary_id", "attempts" FROM `owner_notices`;--> statement-breakpoint
CREATE TABLE `__kept_owner_notice_deliveries` AS SELECT "id", "notice_id", "user_id", "channel", "address", "ok", "error", "at" FROM `owner_notice_deliveries`;--> statement-breakpoint
DROP TABLE `owner_notice_deliveries`;--> statement-breakpoint
DROP TABLE `owner_notices`;--> statement-breakpoint
ALTER TABLE `__new_owner_notices` RENAME TO `owner_notices`;--> statement-breakpoint
CREATE INDEX `owner_notices_user_idx` ON `owner_notices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `owner_notices_pending_idx` ON `owner_notices` (`due_at`) WHERE "owner_notices"."status" = 'pending';--> statement-breakpoint
CREATE TABLE `owner_notice_deliveries` (
	`id` text NOT NULL,
	`notice_id` text NOT NULL,
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`ok` integer NOT NULL,
	`error` text,
	`at` integer NOT NULL,
	PRIMARY KEY(`notice_id`, `at`, `id`),
	FOREIGN KEY (`notice_id`) REFERENCES `owner_notices`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `owner_notice_deliveries`("id", "notice_id", "user_id", "channel", "address", "ok", "error", "at") SELECT "id", "notice_id", "user_id", "channel", "address", "ok", "error", "at" FROM `__kept_owner_notice_deliveries`;--> statement-breakpoint
DROP TABLE `__kept_owner_notice_deliveries`;
