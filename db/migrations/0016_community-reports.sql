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
ALTER TABLE `capsules` ADD `hidden_at` integer;--> statement-breakpoint
ALTER TABLE `memorial_posts` ADD `hidden_at` integer;--> statement-breakpoint
-- Hand-written: reports go with what they report (the target has no foreign key: it is one of two tables).
CREATE TRIGGER `community_reports_capsule_delete` AFTER DELETE ON `capsules` BEGIN DELETE FROM `community_reports` WHERE `target_type` = 'capsule' AND `target_id` = old.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `community_reports_post_delete` AFTER DELETE ON `memorial_posts` BEGIN DELETE FROM `community_reports` WHERE `target_type` = 'post' AND `target_id` = old.`id`; END;
