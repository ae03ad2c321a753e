CREATE TABLE `deadman_heirs` (
	`owner_id` text NOT NULL,
	`recipient_user_id` text NOT NULL,
	`parts` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`owner_id`, `recipient_user_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deadman_heirs_recipient_idx` ON `deadman_heirs` (`recipient_user_id`);--> statement-breakpoint
CREATE TABLE `legacy_copies` (
	`id` text PRIMARY KEY NOT NULL,
	`recipient_user_id` text NOT NULL,
	`deletion_id` text NOT NULL,
	`from_label` text NOT NULL,
	`parts` text NOT NULL,
	`status` text NOT NULL,
	`r2_key` text NOT NULL,
	`size` integer,
	`queued_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`ready_at` integer,
	FOREIGN KEY (`recipient_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `legacy_copies_one_per_heir` ON `legacy_copies` (`deletion_id`,`recipient_user_id`);--> statement-breakpoint
CREATE INDEX `legacy_copies_recipient_idx` ON `legacy_copies` (`recipient_user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `legacy_copies_pending_idx` ON `legacy_copies` (`deletion_id`) WHERE status = 'pending';