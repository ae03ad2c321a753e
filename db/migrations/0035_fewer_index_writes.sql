-- Two indexes that cost a write more than they saved a read (docs/performance.md, "Where it stands"):
-- owner_notices_canary_idx (a canary's warnings are read through the owner's index; a person has few canaries)
-- goes, and canary_transitions_unemitted_idx holds only the rows not yet emitted — the ones the reconciler
-- looks for — so the many rows that arrive emitted are not written into it.
DROP INDEX `owner_notices_canary_idx`;--> statement-breakpoint
DROP INDEX `canary_transitions_unemitted_idx`;--> statement-breakpoint
CREATE INDEX `canary_transitions_unemitted_idx` ON `canary_transitions` (`kind`,`counts_from`) WHERE "canary_transitions"."emitted_at" is null;