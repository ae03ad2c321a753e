-- A deletion reads what it deletes (docs/performance.md, "A deletion reads what it deletes"): SQLite follows a
-- foreign key from a deleted parent row to its children through an index on the child's column, and without one it
-- reads the child table whole — once per deleted parent row. Cheap in a test database, it grows with every account:
-- deleting an account read every check-in link of every user, deleting a chat import every line of every import,
-- deleting a webhook endpoint every attempt of every endpoint once per delivery. Each such column now leads an index,
-- except check_in_links.user_id, which stops being a foreign key instead: a link goes with its canary (canary_id,
-- indexed), which goes with its owner, and an index would cost a row with every warning. The table is rebuilt for
-- that (drizzle-kit's output, written by hand to keep WITHOUT ROWID, db/migrations/0034_clustered_hot_tables.sql,
-- and D1's deferred keys in place of `PRAGMA foreign_keys`); nothing refers to it, so the drop runs no cascade.
-- worker/test/foreign-key-indexes.test.ts holds every foreign key to this rule.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_check_in_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`canary_id` text NOT NULL,
	`notice_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`canary_id`) REFERENCES `canaries`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_check_in_links`("token_hash", "user_id", "canary_id", "notice_id", "created_at", "expires_at", "used_at") SELECT "token_hash", "user_id", "canary_id", "notice_id", "created_at", "expires_at", "used_at" FROM `check_in_links`;--> statement-breakpoint
DROP TABLE `check_in_links`;--> statement-breakpoint
ALTER TABLE `__new_check_in_links` RENAME TO `check_in_links`;--> statement-breakpoint
CREATE INDEX `check_in_links_canary_idx` ON `check_in_links` (`canary_id`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`);--> statement-breakpoint
CREATE INDEX `death_report_votes_guardian_idx` ON `death_report_votes` (`guardian_id`);--> statement-breakpoint
CREATE INDEX `guardian_holds_guardian_idx` ON `guardian_holds` (`guardian_id`);--> statement-breakpoint
CREATE INDEX `guardian_notices_guardian_idx` ON `guardian_notices` (`guardian_id`);--> statement-breakpoint
CREATE INDEX `persona_settings_keeper_idx` ON `persona_settings` (`keeper_user_id`);--> statement-breakpoint
CREATE INDEX `persona_chat_lines_import_idx` ON `persona_chat_lines` (`import_id`);
