-- A message's create call may carry an idempotency_key: sent again with the same key (its first answer lost to a
-- failure), it gets the message the first try wrote instead of writing a second
-- (docs/decisions/create-retries.md). The key is unique per sender in the index itself, so two tries racing
-- each other write one message; messages created without a key write no index entry (the partial index).
ALTER TABLE `messages` ADD `create_key` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `create_digest` text;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_create_key` ON `messages` (`sender_id`,`create_key`) WHERE "messages"."create_key" IS NOT NULL;