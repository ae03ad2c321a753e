CREATE TABLE `rehearsals` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`notify_recipients` integer DEFAULT false NOT NULL,
	`notify_guardians` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`report` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rehearsals_user_created_idx` ON `rehearsals` (`user_id`,`created_at`);