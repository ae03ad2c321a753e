import { z } from 'zod';

/** The dashboard's Recent Activity. */
export const ACTIVITY_KINDS = [
  'check_in',
  'canary_created',
  'canary_deleted',
  /** Its interval or calendar schedule changed; paused for a vacation; the pause ended early (docs/decisions/calendar-schedules.md). */
  'canary_changed',
  'canary_paused',
  'canary_resumed',
  'grace_reminder',
  'late_rewarn',
  'missed_checkin',
  'deadman_set',
  'deadman_cancelled',
  'deadman_passed',
  'account_deletion_scheduled',
] as const;

/**
 * GET /api/activity?limit=N and activity.recent: how many entries, 1…100 (default 20). A query string
 * arrives as text, so the number is coerced; `1.5`, `0`, `-1`, `1e9` and `ten` are 422, never clamped.
 */
export const ZActivityQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many entries, 1…100') });

/** A Recent Activity entry. */
export const ZActivity = z.object({
  id: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  source: z.string().nullable(),
  canary_id: z.string().nullable(),
  summary: z.string(),
  created_at: z.string(),
});
export type TActivity = z.infer<typeof ZActivity>;
