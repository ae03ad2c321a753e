CREATE TABLE `memorial_wishes` (
	`user_id` text PRIMARY KEY NOT NULL,
	`memorial_id` text NOT NULL,
	`name` text NOT NULL,
	`avatar_url` text,
	`epitaph` text DEFAULT '' NOT NULL,
	`tags` text NOT NULL,
	`cause` text,
	`made_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
