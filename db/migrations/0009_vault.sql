CREATE TABLE `vault_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`r2_key` text NOT NULL,
	`iv` text NOT NULL,
	`envelope` text NOT NULL,
	`name` text NOT NULL,
	`size` integer NOT NULL,
	`legal_note` text,
	`consent_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `vault_assets_owner_idx` ON `vault_assets` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `vault_items` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`recipient_user_id` text NOT NULL,
	`condition_type` text NOT NULL,
	`condition_value` text,
	`every_year` integer DEFAULT false NOT NULL,
	`legal_note` text,
	`claim_token` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`asset_id`) REFERENCES `vault_assets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vault_items_asset` ON `vault_items` (`asset_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `vault_items_claim_token` ON `vault_items` (`claim_token`);--> statement-breakpoint
CREATE INDEX `vault_items_owner_idx` ON `vault_items` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `vault_items_recipient_idx` ON `vault_items` (`recipient_user_id`);--> statement-breakpoint
ALTER TABLE `messages` ADD `vault_item_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_vault_once` ON `messages` (`vault_item_id`,`deliver_at`);