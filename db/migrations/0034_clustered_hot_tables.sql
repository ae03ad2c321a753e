-- The three tables written on every check-in and every warning become WITHOUT ROWID, keyed the way they are
-- read, so an inserted row is fewer rows written — what D1 bills (docs/performance.md, "Rows stored in their
-- key's order"): activity 3 → 1 (the key (user_id, created_at, id) is the feed's order and replaces
-- activity_user_idx), owner_notice_deliveries 4 → 2 (key (notice_id, at, id), as Canary Status reads a
-- warning's deliveries; the owner's index stays for the export and account deletion), check_in_links 3 → 2
-- (its token hash was already the key). drizzle cannot declare WITHOUT ROWID: the schema declares the keys
-- (db/schema/activity.ts, notifications.ts, canaries.ts) and this file, written by hand from drizzle-kit's
-- output, adds the clause. No table has children, so dropping each runs no cascade (D1 keeps foreign keys
-- enforced inside a migration). worker/test/migration-clustered-hot-tables.test.ts applies it to a populated
-- database.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_activity` (
	`id` text NOT NULL,
	`user_id` text NOT NULL,
	`canary_id` text,
	`kind` text NOT NULL,
	`source` text,
	`summary` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `created_at`, `id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_activity`("id", "user_id", "canary_id", "kind", "source", "summary", "created_at") SELECT "id", "user_id", "canary_id", "kind", "source", "summary", "created_at" FROM `activity`;--> statement-breakpoint
DROP TABLE `activity`;--> statement-breakpoint
ALTER TABLE `__new_activity` RENAME TO `activity`;--> statement-breakpoint
CREATE TABLE `__new_owner_notice_deliveries` (
	`id` text NOT NULL,
	`notice_id` text NOT NULL,
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`ok` integer NOT NULL,
	`error` text,
	`at` integer NOT NULL,
	PRIMARY KEY(`notice_id`, `at`, `id`),
	FOREIGN KEY (`notice_id`) REFERENCES `owner_notices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_owner_notice_deliveries`("id", "notice_id", "user_id", "channel", "address", "ok", "error", "at") SELECT "id", "notice_id", "user_id", "channel", "address", "ok", "error", "at" FROM `owner_notice_deliveries`;--> statement-breakpoint
DROP TABLE `owner_notice_deliveries`;--> statement-breakpoint
ALTER TABLE `__new_owner_notice_deliveries` RENAME TO `owner_notice_deliveries`;--> statement-breakpoint
CREATE INDEX `owner_notice_deliveries_user_idx` ON `owner_notice_deliveries` (`user_id`);--> statement-breakpoint
CREATE TABLE `__new_check_in_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`canary_id` text NOT NULL,
	`notice_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`canary_id`) REFERENCES `canaries`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_check_in_links`("token_hash", "user_id", "canary_id", "notice_id", "created_at", "expires_at", "used_at") SELECT "token_hash", "user_id", "canary_id", "notice_id", "created_at", "expires_at", "used_at" FROM `check_in_links`;--> statement-breakpoint
DROP TABLE `check_in_links`;--> statement-breakpoint
ALTER TABLE `__new_check_in_links` RENAME TO `check_in_links`;--> statement-breakpoint
CREATE INDEX `check_in_links_canary_idx` ON `check_in_links` (`canary_id`);
