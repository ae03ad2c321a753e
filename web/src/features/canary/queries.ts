/** Other devices and cron jobs check in too: re-read the status this often (and on focus). */
export const CANARY_STATUS_REFRESH_MS = 60_000;
export const RECENT_ACTIVITY_LIMIT = 10;
