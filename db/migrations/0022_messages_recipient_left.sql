-- messages.recipient_user_id becomes nullable with ON DELETE SET NULL: a message to someone who deleted
-- their account stays with its sender, as undeliverable (docs/decisions/data-rights.md). SQLite changes a
-- foreign key only by rebuilding the table. In D1 the foreign keys stay enforced (PRAGMA foreign_keys is
-- ignored inside the migration's transaction) and `DROP TABLE messages` runs the ON DELETE CASCADE of its
-- children even with defer_foreign_keys (it defers checks, not actions). So the children's rows are put
-- aside first and restored after the rename (DELETE first: where the drop did not cascade, nothing doubles).
-- Children of messages: message_transitions, deliveries, delivery_log, message_attachments.
-- worker/test/migration-messages-recipient-left.test.ts applies this to a populated database.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__keep_message_transitions` AS SELECT * FROM `message_transitions`;--> statement-breakpoint
CREATE TABLE `__keep_deliveries` AS SELECT * FROM `deliveries`;--> statement-breakpoint
CREATE TABLE `__keep_delivery_log` AS SELECT * FROM `delivery_log`;--> statement-breakpoint
CREATE TABLE `__keep_message_attachments` AS SELECT * FROM `message_attachments`;--> statement-breakpoint
CREATE TABLE `__new_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`sender_id` text NOT NULL,
	`recipient_user_id` text,
	`content` text DEFAULT '' NOT NULL,
	`content_encrypted` text,
	`audio_key` text,
	`audio_type` text,
	`audio_bytes` integer,
	`deliver_at` integer NOT NULL,
	`delivery_method` text NOT NULL,
	`use_e2ee` integer DEFAULT false NOT NULL,
	`rules` text NOT NULL,
	`status` text NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`armed_at` integer,
	`cancel_deadline` integer,
	`released_at` integer,
	`finished_at` integer,
	`timer_due_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`vault_item_id` text,
	`read_at` integer,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_messages`("id", "sender_id", "recipient_user_id", "content", "content_encrypted", "audio_key", "audio_type", "audio_bytes", "deliver_at", "delivery_method", "use_e2ee", "rules", "status", "version", "armed_at", "cancel_deadline", "released_at", "finished_at", "timer_due_at", "created_at", "updated_at", "vault_item_id", "read_at") SELECT "id", "sender_id", "recipient_user_id", "content", "content_encrypted", "audio_key", "audio_type", "audio_bytes", "deliver_at", "delivery_method", "use_e2ee", "rules", "status", "version", "armed_at", "cancel_deadline", "released_at", "finished_at", "timer_due_at", "created_at", "updated_at", "vault_item_id", "read_at" FROM `messages`;--> statement-breakpoint
DROP TABLE `messages`;--> statement-breakpoint
ALTER TABLE `__new_messages` RENAME TO `messages`;--> statement-breakpoint
DELETE FROM `message_transitions`;--> statement-breakpoint
INSERT INTO `message_transitions` SELECT * FROM `__keep_message_transitions`;--> statement-breakpoint
DROP TABLE `__keep_message_transitions`;--> statement-breakpoint
DELETE FROM `deliveries`;--> statement-breakpoint
INSERT INTO `deliveries` SELECT * FROM `__keep_deliveries`;--> statement-breakpoint
DROP TABLE `__keep_deliveries`;--> statement-breakpoint
DELETE FROM `delivery_log`;--> statement-breakpoint
INSERT INTO `delivery_log` SELECT * FROM `__keep_delivery_log`;--> statement-breakpoint
DROP TABLE `__keep_delivery_log`;--> statement-breakpoint
DELETE FROM `message_attachments`;--> statement-breakpoint
INSERT INTO `message_attachments` SELECT * FROM `__keep_message_attachments`;--> statement-breakpoint
DROP TABLE `__keep_message_attachments`;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_vault_once` ON `messages` (`vault_item_id`,`deliver_at`);--> statement-breakpoint
CREATE INDEX `messages_sender_idx` ON `messages` (`sender_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_recipient_idx` ON `messages` (`recipient_user_id`,`released_at`);--> statement-breakpoint
CREATE INDEX `messages_timer_idx` ON `messages` (`status`,`timer_due_at`);