CREATE TABLE `account_inactivity` (
	`user_id` text PRIMARY KEY NOT NULL,
	`last_active_at` integer NOT NULL,
	`window_started_at` integer NOT NULL,
	`archive_at` integer NOT NULL,
	`reminders_sent` integer DEFAULT 0 NOT NULL,
	`archived_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_inactivity_archive_idx` ON `account_inactivity` (`archive_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `last_sign_in_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `archived_at` integer;