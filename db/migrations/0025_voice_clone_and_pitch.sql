ALTER TABLE `voice_profiles` ADD `provider_voice_id` text;--> statement-breakpoint
ALTER TABLE `voice_samples` ADD `pitch_hz` real;--> statement-breakpoint
ALTER TABLE `voice_samples` ADD `syllables_per_second` real;--> statement-breakpoint
ALTER TABLE `voice_samples` ADD `analysed_seconds` real;