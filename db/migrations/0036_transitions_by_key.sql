-- canary_transitions stored WITHOUT ROWID, keyed by its once-per-cycle key (canary, cycle, kind, misses) — the key
-- every writer and the engine's readers use — instead of a text id plus a unique index on that key: an insert
-- writes the row and the owner's index (the reconciler's partial index only for rows not yet emitted), not four
-- rows (docs/performance.md). `id` stays as a column (nothing looks rows up by it). No table refers to this one,
-- so the drop runs no cascade. Written by hand from drizzle-kit's output (drizzle cannot declare WITHOUT ROWID);
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
	PRIMARY KEY(`canary_id`, `cycle_deadline`, `kind`, `misses`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_canary_transitions`("id", "canary_id", "user_id", "cycle_deadline", "kind", "misses", "due_at", "fired_at", "counts_from", "emitted_at", "delivery_channel", "delivery_status", "delivered_at", "recorded_by") SELECT "id", "canary_id", "user_id", "cycle_deadline", "kind", "misses", "due_at", "fired_at", "counts_from", "emitted_at", "delivery_channel", "delivery_status", "delivered_at", "recorded_by" FROM `canary_transitions`;--> statement-breakpoint
DROP TABLE `canary_transitions`;--> statement-breakpoint
ALTER TABLE `__new_canary_transitions` RENAME TO `canary_transitions`;--> statement-breakpoint
CREATE INDEX `canary_transitions_user_idx` ON `canary_transitions` (`user_id`,`fired_at`);--> statement-breakpoint
CREATE INDEX `canary_transitions_unemitted_idx` ON `canary_transitions` (`kind`,`counts_from`) WHERE "canary_transitions"."emitted_at" is null;