CREATE TABLE `persona_chat_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`user_id` text NOT NULL,
	`audio_ms` integer NOT NULL,
	`turns` integer NOT NULL,
	`started_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `persona_chat_sessions_owner_idx` ON `persona_chat_sessions` (`owner_id`);--> statement-breakpoint
CREATE INDEX `persona_chat_sessions_user_idx` ON `persona_chat_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `persona_recipients` (
	`owner_id` text NOT NULL,
	`recipient_user_id` text NOT NULL,
	`added_at` integer NOT NULL,
	`retired_at` integer,
	PRIMARY KEY(`owner_id`, `recipient_user_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `persona_recipients_recipient_idx` ON `persona_recipients` (`recipient_user_id`);--> statement-breakpoint
CREATE TABLE `persona_settings` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`keeper_user_id` text,
	`retired_at` integer,
	`retired_by` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`keeper_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
