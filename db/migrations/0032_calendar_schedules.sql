ALTER TABLE `canaries` ADD `schedule` text;--> statement-breakpoint
ALTER TABLE `canaries` ADD `paused_until` integer;