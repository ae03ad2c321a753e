CREATE TABLE `voice_prompts` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`prompt` text NOT NULL,
	`response_text` text,
	`r2_key` text,
	`content_type` text,
	`size` integer NOT NULL,
	`duration_ms` integer,
	`locked` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `voice_prompts_owner_idx` ON `voice_prompts` (`owner_id`,`created_at`);