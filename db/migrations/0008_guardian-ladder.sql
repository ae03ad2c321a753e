CREATE TABLE `death_report_votes` (
	`id` text PRIMARY KEY NOT NULL,
	`report_id` text NOT NULL,
	`guardian_id` text,
	`key_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`report_id`) REFERENCES `death_reports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_id`) REFERENCES `guardians`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `death_report_votes_guardian` ON `death_report_votes` (`report_id`,`guardian_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `death_report_votes_key` ON `death_report_votes` (`report_id`,`key_id`);--> statement-breakpoint
CREATE TABLE `death_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`status` text NOT NULL,
	`sandbox` integer DEFAULT false NOT NULL,
	`opened_by` text NOT NULL,
	`opened_at` integer NOT NULL,
	`window_opened_at` integer,
	`window_ends_at` integer,
	`halfway_at` integer,
	`halfway_sent_at` integer,
	`closed_at` integer,
	`effects_done_at` integer,
	`timer_due_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `death_reports_one_open` ON `death_reports` (`owner_id`,`sandbox`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `death_reports_owner_idx` ON `death_reports` (`owner_id`,`opened_at`);--> statement-breakpoint
CREATE INDEX `death_reports_timer_idx` ON `death_reports` (`status`,`timer_due_at`);--> statement-breakpoint
CREATE TABLE `guardian_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`guardian_id` text NOT NULL,
	`until` integer NOT NULL,
	`created_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_id`) REFERENCES `guardians`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guardian_holds_owner_idx` ON `guardian_holds` (`owner_id`,`ended_at`);--> statement-breakpoint
CREATE TABLE `guardian_notices` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`guardian_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`link` text,
	`sandbox` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_id`) REFERENCES `guardians`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `guardian_notices_status_idx` ON `guardian_notices` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `guardian_notices_owner_idx` ON `guardian_notices` (`owner_id`);--> statement-breakpoint
CREATE TABLE `guardian_settings` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`quorum` integer DEFAULT 1 NOT NULL,
	`veto_window_hours` integer DEFAULT 72 NOT NULL,
	`ask_after_misses` integer DEFAULT 1 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `guardians` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`email` text NOT NULL,
	`guardian_user_id` text,
	`status` text NOT NULL,
	`invite_token_hash` text,
	`invited_at` integer NOT NULL,
	`responded_at` integer,
	`ended_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`guardian_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guardians_invite_token_hash_unique` ON `guardians` (`invite_token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `guardians_live_email` ON `guardians` (`owner_id`,`email`) WHERE status IN ('invited', 'active');--> statement-breakpoint
CREATE UNIQUE INDEX `guardians_active_account` ON `guardians` (`owner_id`,`guardian_user_id`) WHERE status = 'active';--> statement-breakpoint
CREATE INDEX `guardians_owner_idx` ON `guardians` (`owner_id`,`status`);--> statement-breakpoint
CREATE INDEX `guardians_account_idx` ON `guardians` (`guardian_user_id`,`status`);--> statement-breakpoint
CREATE TABLE `ladder_transitions` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor` text NOT NULL,
	`cause` text NOT NULL,
	`detail` text,
	`report_id` text,
	`dedupe_key` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ladder_transitions_once` ON `ladder_transitions` (`owner_id`,`dedupe_key`);--> statement-breakpoint
CREATE INDEX `ladder_transitions_owner_idx` ON `ladder_transitions` (`owner_id`,`at`);--> statement-breakpoint
ALTER TABLE `owner_notices` ADD `outbox_only` integer DEFAULT false NOT NULL;