CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`event` text NOT NULL,
	`message_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`success` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_webhook_idx` ON `webhook_attempts` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`message_id` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer,
	`last_error` text,
	`last_status_code` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_once` ON `webhook_deliveries` (`webhook_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`event` text NOT NULL,
	`secret_encrypted` text NOT NULL,
	`secret_hint` text NOT NULL,
	`retry` integer NOT NULL,
	`sandbox` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`disabled_reason` text,
	`disabled_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_user_idx` ON `webhooks` (`user_id`,`event`,`status`);