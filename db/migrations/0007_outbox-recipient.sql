ALTER TABLE `outbox_messages` ADD `recipient_user_id` text;--> statement-breakpoint
CREATE INDEX `outbox_recipient_created_idx` ON `outbox_messages` (`recipient_user_id`,`created_at`);