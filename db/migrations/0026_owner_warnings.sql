CREATE TABLE `owner_notice_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`notice_id` text NOT NULL,
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`address` text NOT NULL,
	`ok` integer NOT NULL,
	`error` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`notice_id`) REFERENCES `owner_notices`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `owner_notice_deliveries_notice_idx` ON `owner_notice_deliveries` (`notice_id`,`at`);--> statement-breakpoint
CREATE INDEX `owner_notice_deliveries_user_idx` ON `owner_notice_deliveries` (`user_id`);--> statement-breakpoint
ALTER TABLE `owner_notices` ADD `canary_id` text;--> statement-breakpoint
ALTER TABLE `owner_notices` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `owner_notices_canary_idx` ON `owner_notices` (`canary_id`,`created_at`);