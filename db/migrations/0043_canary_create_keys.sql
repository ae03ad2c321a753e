-- A canary's create call may carry an idempotency_key, as a message's does (0042): sent again with the same key
-- (its first answer lost to a failure), it gets the canary the first try wrote instead of a second one — or the
-- plan's limit refusing it (docs/decisions/create-retries.md). Unique per owner in the index itself; canaries
-- created without a key write no index entry (the partial index).
ALTER TABLE `canaries` ADD `create_key` text;--> statement-breakpoint
ALTER TABLE `canaries` ADD `create_digest` text;--> statement-breakpoint
CREATE UNIQUE INDEX `canaries_create_key` ON `canaries` (`user_id`,`create_key`) WHERE "canaries"."create_key" IS NOT NULL;