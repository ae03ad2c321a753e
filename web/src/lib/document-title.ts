/**
 * The tab title: the page's own name, prefixed with a warning while a canary is missed
 * (docs/product.md "Canaries and check-ins"). Kept in one place so a page navigation and the warning never
 * overwrite each other.
 */
export const MISSED_TITLE_PREFIX = '⚠ Check-in missed — ';

let base = 'Afterword';
let missedWarning = false;

function apply() {
  document.title = missedWarning ? `${MISSED_TITLE_PREFIX}${base}` : base;
}

/** A page's tab title: "Pricing · Afterword", or "Afterword" for the landing page. */
export function pageTitleText(title: string): string {
  return title ? `${title} · Afterword` : 'Afterword';
}

export function setPageTitle(title: string) {
  base = pageTitleText(title);
  apply();
}

export function setMissedTitleWarning(on: boolean) {
  if (missedWarning === on) return;
  missedWarning = on;
  apply();
}
