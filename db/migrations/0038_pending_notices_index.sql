-- The owner notices' due index holds only the pending ones (docs/performance.md, "The objects' own storage"):
-- those are what the reconciler looks for (worker/src/domains/messages/reconcile-releases.ts,
-- pendingNoticesDueBefore); with an index of every notice on (status, due_at), marking one sent moved its entry
-- — a row written more per notice. Inserted pending, it enters the index as before.
DROP INDEX `owner_notices_due_idx`;--> statement-breakpoint
CREATE INDEX `owner_notices_pending_idx` ON `owner_notices` (`due_at`) WHERE "owner_notices"."status" = 'pending';