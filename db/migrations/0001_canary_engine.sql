CREATE TABLE `canaries` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`interval_seconds` integer NOT NULL,
	`token_hash` text NOT NULL,
	`token_version` integer DEFAULT 1 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`last_check_in` integer NOT NULL,
	`timer_due_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `canaries_token_hash_unique` ON `canaries` (`token_hash`);--> statement-breakpoint
CREATE INDEX `canaries_user_idx` ON `canaries` (`user_id`);--> statement-breakpoint
CREATE INDEX `canaries_timer_idx` ON `canaries` (`active`,`timer_due_at`);--> statement-breakpoint
CREATE TABLE `canary_transitions` (
	`id` text PRIMARY KEY NOT NULL,
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
	`recorded_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `canary_transitions_once` ON `canary_transitions` (`canary_id`,`cycle_deadline`,`kind`,`misses`);--> statement-breakpoint
CREATE INDEX `canary_transitions_user_idx` ON `canary_transitions` (`user_id`,`fired_at`);--> statement-breakpoint
CREATE INDEX `canary_transitions_unemitted_idx` ON `canary_transitions` (`emitted_at`,`counts_from`);--> statement-breakpoint
CREATE TABLE `activity` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`canary_id` text,
	`kind` text NOT NULL,
	`source` text,
	`summary` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `activity_user_idx` ON `activity` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `deadman_switches` (
	`user_id` text PRIMARY KEY NOT NULL,
	`hours` real NOT NULL,
	`armed_at` integer NOT NULL,
	`deadline` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deadman_deadline_idx` ON `deadman_switches` (`deadline`);--> statement-breakpoint
CREATE TABLE `scheduled_deletions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`reason` text NOT NULL,
	`deletion_date` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`done_at` integer
);
--> statement-breakpoint
CREATE INDEX `scheduled_deletions_user_idx` ON `scheduled_deletions` (`user_id`);--> statement-breakpoint
CREATE INDEX `scheduled_deletions_due_idx` ON `scheduled_deletions` (`status`,`deletion_date`);