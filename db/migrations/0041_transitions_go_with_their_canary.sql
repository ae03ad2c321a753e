-- A canary's timer events go with it (docs/performance.md, "Timer events go with their canary"): canary_transitions
-- gets a foreign key on its canary (ON DELETE CASCADE) and loses its owner's index. Deleting a canary already makes
-- its object forget its check-ins (docs/decisions/canary-engine.md); its history now goes too, and an account's
-- deletion reaches the events through its canaries, by the table's own key (canary first) — so no index of the owner
-- is needed, and each event is one row written, not two. The export reads them through the owner's canaries
-- (worker/src/domains/legal/export/export-plan.ts). Events of canaries deleted before this are not carried over: they
-- are what the rule now deletes. Written by hand from drizzle-kit's output, to keep WITHOUT ROWID
-- (0036_transitions_by_key.sql) and D1's deferred keys; no table refers to this one, so the drop runs no cascade.
-- worker/test/migration-clustered-hot-tables.test.ts applies it to a populated database.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_canary_transitions` (
	`id` text NOT NULL,
	`canary_id` text NOT NULL,
	`user_id` text NOT NULL,
	`cycle_deadline` integer NOT NULL,
	`kind` text NOT NULL,
	`misses` integer NOT NULL,
	`due_at` integer NOT NULL,
	`fired_at` integer NOT NULL,
	`counts_from` integer,
	`emitted_at` integer,
	`delivery_channel` text,
	`delivery_status` text,
	`delivered_at` integer,
	`recorded_by` text NOT NULL,
	PRIMARY KEY(`canary_id`, `cycle_deadline`, `kind`, `misses`),
	FOREIGN KEY (`canary_id`) REFERENCES `canaries`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_canary_transitions`("id", "canary_id", "user_id", "cycle_deadline", "kind", "misses", "due_at", "fired_at", "counts_from", "emitted_at", "delivery_channel", "delivery_status", "delivered_at", "recorded_by") SELECT "id", "canary_id", "user_id", "cycle_deadline", "kind", "misses", "due_at", "fired_at", "counts_from", "emitted_at", "delivery_channel", "delivery_status", "delivered_at", "recorded_by" FROM `canary_transitions` WHERE "canary_id" IN (SELECT "id" FROM `canaries`);--> statement-breakpoint
DROP TABLE `canary_transitions`;--> statement-breakpoint
ALTER TABLE `__new_canary_transitions` RENAME TO `canary_transitions`;--> statement-breakpoint
CREATE INDEX `canary_transitions_unemitted_idx` ON `canary_transitions` (`kind`,`counts_from`) WHERE "canary_transitions"."emitted_at" is null;
