-- A post on a memorial may carry an idempotency_key, as the other creates do (0042–0045): sent again with the same key
-- (its first answer lost, or a second press of Post), it gets the post the first try wrote instead of showing the
-- same words twice on a public page (docs/decisions/create-retries.md). Unique per author in the index itself.
ALTER TABLE `memorial_posts` ADD `create_key` text;--> statement-breakpoint
ALTER TABLE `memorial_posts` ADD `create_digest` text;--> statement-breakpoint
CREATE UNIQUE INDEX `memorial_posts_create_key` ON `memorial_posts` (`author_id`,`create_key`) WHERE "memorial_posts"."create_key" IS NOT NULL;