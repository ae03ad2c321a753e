CREATE TABLE `contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`email` text NOT NULL,
	`contact_user_id` text,
	`status` text NOT NULL,
	`invite_token_hash` text,
	`invited_at` integer NOT NULL,
	`invitation_sent_at` integer,
	`responded_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_invite_token_hash_unique` ON `contacts` (`invite_token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_live_email` ON `contacts` (`owner_id`,`email`) WHERE status IN ('invited', 'accepted');--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_accepted_pair` ON `contacts` (`owner_id`,`contact_user_id`) WHERE status = 'accepted';--> statement-breakpoint
CREATE INDEX `contacts_owner_idx` ON `contacts` (`owner_id`,`status`);--> statement-breakpoint
CREATE INDEX `contacts_account_idx` ON `contacts` (`contact_user_id`,`status`);