-- A guardian's or a contact's invitation may carry an idempotency_key, as a message's (0042) and a canary's (0043)
-- create do: sent again with the same key (its first answer lost to a failure), it gets the invitation the first
-- try wrote instead of "already invited" (docs/decisions/create-retries.md). Unique per owner in the index itself;
-- invitations sent without a key write no index entry (the partial index).
ALTER TABLE `guardians` ADD `create_key` text;--> statement-breakpoint
ALTER TABLE `guardians` ADD `create_digest` text;--> statement-breakpoint
CREATE UNIQUE INDEX `guardians_create_key` ON `guardians` (`owner_id`,`create_key`) WHERE "guardians"."create_key" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `contacts` ADD `create_key` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `create_digest` text;--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_create_key` ON `contacts` (`owner_id`,`create_key`) WHERE "contacts"."create_key" IS NOT NULL;