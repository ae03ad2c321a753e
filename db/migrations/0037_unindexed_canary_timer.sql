-- The canary timer's index goes (docs/performance.md, "The timer without its index"): every wake moved
-- `timer_due_at` and so wrote the index too (two rows a wake, the largest write of the simulation), for one
-- reader — the reconciler's lost-timer scan, which now reads every canary once every ten minutes instead
-- (worker/src/cron/reconcile-canaries.ts), a read of a row costing a thousandth of a write.
DROP INDEX `canaries_timer_idx`;