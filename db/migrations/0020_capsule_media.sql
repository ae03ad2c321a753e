ALTER TABLE `capsule_items` ADD `r2_key` text;--> statement-breakpoint
ALTER TABLE `capsule_items` ADD `content_type` text;--> statement-breakpoint
ALTER TABLE `capsule_items` ADD `size` integer;--> statement-breakpoint
ALTER TABLE `capsule_items` ADD `duration_ms` integer;--> statement-breakpoint
ALTER TABLE `capsule_items` ADD `captions` text;