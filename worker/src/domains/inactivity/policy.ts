/**
 * The inactivity policy's clock (docs/product.md "Inactivity and payments": after 12 months of inactivity there
 * is a free export window of 12 months before archival; docs/decisions/inactivity.md). Months are counted as
 * 365 days: the policy is about years, and a fixed length keeps every step testable to the millisecond.
 */
const DAY_MS = 24 * 3600_000;

/** Neither a sign-in nor a check-in for this long opens the export window. */
export const INACTIVE_AFTER_MS = 365 * DAY_MS;

/** The free export window: the account is archived at its end. */
export const EXPORT_WINDOW_MS = 365 * DAY_MS;

/** Reminders before the archival, earliest first: six months, one month and one week ahead. */
export const REMINDERS_BEFORE_ARCHIVE_MS = [182 * DAY_MS, 30 * DAY_MS, 7 * DAY_MS] as const;

/** How many reminders are due at `now` for an archival at `archiveAt` (only the latest is sent when several are). */
export function remindersDue(now: number, archiveAt: number): number {
  return REMINDERS_BEFORE_ARCHIVE_MS.filter((before) => now >= archiveAt - before).length;
}

/**
 * SQL (alias `u` for users) for the user's last activity in ms: their last sign-in (or the sign-up) and
 * the latest check-in of any of their canaries.
 */
export const LAST_ACTIVE_SQL = `max(coalesce(u.last_sign_in_at, u.created_at), coalesce((SELECT max(c.last_check_in) FROM canaries c WHERE c.user_id = u.id), 0))`;

/**
 * SQL (alias `u`) true when the policy must not archive the account: a release still to come (a message
 * or vault item scheduled, armed or being delivered), a death report open before its guardians, or a
 * confirmed death — the product is doing what the person asked of it, and an archive would get in its way.
 */
export const KEPT_ACTIVE_SQL = `(u.death_confirmed_at IS NOT NULL
  OR EXISTS (SELECT 1 FROM messages m WHERE m.sender_id = u.id AND m.status IN ('scheduled', 'armed', 'releasing'))
  OR EXISTS (SELECT 1 FROM death_reports r WHERE r.owner_id = u.id AND r.status = 'open' AND r.sandbox = 0))`;
