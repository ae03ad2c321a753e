-- A contact invitation whose email job never reached the queue (the request died after its write, or the send to
-- the queue failed) stayed unsent for good: its token is stored only as a hash, so nothing could send its link again.
-- `invitation_queued_at` marks when the current token's send was queued; the every-minute cron sends an invitation
-- still unsent an hour later again under a new token (domains/contacts/resend-invitations.ts). The partial index
-- holds only unsent invitations. Invitations unsent today count as queued when they were made.
ALTER TABLE `contacts` ADD `invitation_queued_at` integer;--> statement-breakpoint
CREATE INDEX `contacts_unsent` ON `contacts` (`invitation_queued_at`) WHERE status = 'invited' AND invitation_sent_at IS NULL;--> statement-breakpoint
UPDATE `contacts` SET `invitation_queued_at` = `invited_at` WHERE `status` = 'invited' AND `invitation_sent_at` IS NULL;
