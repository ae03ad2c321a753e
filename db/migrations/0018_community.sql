CREATE TABLE `capsule_items` (
	`id` text PRIMARY KEY NOT NULL,
	`capsule_id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`capsule_id`) REFERENCES `capsules`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `capsule_items_capsule_idx` ON `capsule_items` (`capsule_id`,`position`);--> statement-breakpoint
CREATE TABLE `capsules` (
	`id` text PRIMARY KEY NOT NULL,
	`author_id` text NOT NULL,
	`title` text NOT NULL,
	`theme` text NOT NULL,
	`is_anonymous` integer NOT NULL,
	`release_at` integer NOT NULL,
	`memorial_id` text,
	`unpublished_at` integer,
	`hidden_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`memorial_id`) REFERENCES `memorials`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `capsules_author_idx` ON `capsules` (`author_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `capsules_public_idx` ON `capsules` (`release_at`) WHERE unpublished_at IS NULL;--> statement-breakpoint
CREATE INDEX `capsules_memorial_idx` ON `capsules` (`memorial_id`);--> statement-breakpoint
CREATE TABLE `community_reports` (
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`reporter_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`target_type`, `target_id`, `reporter_id`),
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `community_reports_reporter_idx` ON `community_reports` (`reporter_id`);--> statement-breakpoint
CREATE TABLE `memorial_candles` (
	`post_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`post_id`, `user_id`),
	FOREIGN KEY (`post_id`) REFERENCES `memorial_posts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memorial_candles_user_idx` ON `memorial_candles` (`user_id`);--> statement-breakpoint
CREATE TABLE `memorial_posts` (
	`id` text PRIMARY KEY NOT NULL,
	`memorial_id` text NOT NULL,
	`author_id` text NOT NULL,
	`text` text NOT NULL,
	`media_url` text,
	`hidden_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`memorial_id`) REFERENCES `memorials`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memorial_posts_memorial_idx` ON `memorial_posts` (`memorial_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `memorial_posts_author_idx` ON `memorial_posts` (`author_id`);--> statement-breakpoint
CREATE TABLE `memorials` (
	`id` text PRIMARY KEY NOT NULL,
	`created_by` text NOT NULL,
	`name` text NOT NULL,
	`avatar_url` text,
	`epitaph` text DEFAULT '' NOT NULL,
	`tags` text NOT NULL,
	`cause` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memorials_creator_idx` ON `memorials` (`created_by`);--> statement-breakpoint
-- Hand-written (drizzle has no virtual tables): the full-text index of capsules, one row per capsule,
-- written by the capsule services in the same batch as the capsule (title and its text items).
CREATE VIRTUAL TABLE `capsules_fts` USING fts5(`capsule_id` UNINDEXED, `title`, `body`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
-- A capsule that goes (deleted by its author, or with the account by cascade) leaves nothing in the index.
CREATE TRIGGER `capsules_fts_delete` AFTER DELETE ON `capsules` BEGIN DELETE FROM `capsules_fts` WHERE `capsule_id` = old.`id`; END;
--> statement-breakpoint
-- Hand-written: the remembrance search index (GET /api/memorial/posts), one row per post with its memorial's
-- name, tags and cause. Kept in sync by triggers: a post's row comes and goes with the post (also when a
-- memorial or an account goes, by cascade). Memorials are not edited yet; an edit will refresh its posts' rows.
CREATE VIRTUAL TABLE `remembrances_fts` USING fts5(`post_id` UNINDEXED, `name`, `tags`, `cause`, `text`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `remembrances_fts_insert` AFTER INSERT ON `memorial_posts` BEGIN INSERT INTO `remembrances_fts` (`post_id`, `name`, `tags`, `cause`, `text`) SELECT new.`id`, m.`name`, (SELECT group_concat(value, ' ') FROM json_each(m.`tags`)), coalesce(m.`cause`, ''), new.`text` FROM `memorials` m WHERE m.`id` = new.`memorial_id`; END;
--> statement-breakpoint
CREATE TRIGGER `remembrances_fts_delete` AFTER DELETE ON `memorial_posts` BEGIN DELETE FROM `remembrances_fts` WHERE `post_id` = old.`id`; END;
--> statement-breakpoint
-- Hand-written: reports go with what they report (the target has no foreign key: it is one of two tables).
CREATE TRIGGER `community_reports_capsule_delete` AFTER DELETE ON `capsules` BEGIN DELETE FROM `community_reports` WHERE `target_type` = 'capsule' AND `target_id` = old.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `community_reports_post_delete` AFTER DELETE ON `memorial_posts` BEGIN DELETE FROM `community_reports` WHERE `target_type` = 'post' AND `target_id` = old.`id`; END;
