-- A webhook endpoint's create may carry an idempotency_key, as a message's (0042), a canary's (0043) and an
-- invitation's (0044) do: sent again with the same key (its first answer lost), it gets the endpoint the first try
-- wrote, and its secret, instead of a second endpoint that would receive every event twice
-- (docs/decisions/create-retries.md). Unique per owner in the index itself; creates without a key write no entry.
ALTER TABLE `webhooks` ADD `create_key` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `create_digest` text;--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_create_key` ON `webhooks` (`user_id`,`create_key`) WHERE "webhooks"."create_key" IS NOT NULL;