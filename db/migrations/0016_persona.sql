CREATE TABLE `persona_profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`persona_text` text NOT NULL,
	`behavior` text NOT NULL,
	`qa` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
