// Its own module: the /app/developer route's loader (in the app's first chunk) prefetches the attempts logs
// with ATTEMPTS_SHOWN, and should not carry the developer page's queries and components with it.

/** While a test event or retries may be landing, the attempts log re-reads itself this often. */
export const ATTEMPTS_REFRESH_MS = 5_000;
/** How many delivery attempts each endpoint's log shows. */
export const ATTEMPTS_SHOWN = 20;
