CREATE TABLE `chat_imports` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`status` text NOT NULL,
	`format` text NOT NULL,
	`file_name` text NOT NULL,
	`size` integer NOT NULL,
	`r2_key` text,
	`self_sender` text,
	`senders` text,
	`message_count` integer,
	`line_count` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_imports_owner_idx` ON `chat_imports` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `persona_chat_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`position` integer NOT NULL,
	`text` text NOT NULL,
	`prompt` text,
	`sent_at` integer,
	FOREIGN KEY (`import_id`) REFERENCES `chat_imports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `persona_chat_lines_owner_idx` ON `persona_chat_lines` (`owner_id`,`import_id`,`position`);