CREATE TABLE `voice_profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`engine` text NOT NULL,
	`attempt_id` text NOT NULL,
	`error` text,
	`pitch_hz` real,
	`syllables_per_second` real,
	`seconds_used` real,
	`seconds_analysed` real,
	`sample_count` integer,
	`started_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `voice_samples` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`r2_key` text NOT NULL,
	`label` text NOT NULL,
	`content_type` text NOT NULL,
	`codec` text NOT NULL,
	`size` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`consent_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `voice_samples_owner_idx` ON `voice_samples` (`owner_id`,`created_at`);