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

export function setPageTitle(title: string) {
  base = title ? `${title} · Afterword` : 'Afterword';
  apply();
}

export function setMissedTitleWarning(on: boolean) {
  if (missedWarning === on) return;
  missedWarning = on;
  apply();
}
