// Every toast a page showed, recorded as it appears. A success toast lives 2 s (docs/product.md), and on a busy
// two-core machine a locator poll can land after it is gone; the record keeps what the person saw, in order,
// across reloads, so a journey waits for "the toast was shown" rather than racing its timer.

/** @type {WeakMap<import('playwright-core').Page, {text: string, kind: string, taken: boolean}[]>} */
const shown = new WeakMap();

/** In the page: report each `.toast__message` whenever its text first appears or changes (a toast replaced by id). */
function observeToasts() {
  const last = new WeakMap();
  const scan = () => {
    for (const el of document.querySelectorAll('.toaster .toast__message')) {
      const text = el.textContent ?? '';
      if (last.get(el) === text) continue;
      last.set(el, text);
      const kind = el.closest('.toast')?.getAttribute('data-kind') ?? '';
      globalThis.__afterwordToastShown?.(text, kind);
    }
  };
  new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
}

/** Starts recording the toasts of every page of `context`. */
export async function recordToasts(context) {
  await context.exposeBinding('__afterwordToastShown', ({ page }, text, kind) => {
    const list = shown.get(page) ?? [];
    list.push({ text, kind, taken: false });
    shown.set(page, list);
  });
  await context.addInitScript(observeToasts);
}

/** Whether `page`'s context records toasts (made by tests/support/browser.mjs newContext). */
export const recordsToasts = (page) => recording.has(page.context());
const recording = new WeakSet();
export const markRecording = (context) => recording.add(context);

/**
 * Waits until `page` has shown a toast with exactly `text` that no earlier wait took, and takes it: two saves
 * in a row each wait for their own toast.
 */
export async function waitForToast(page, text, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const hit = (shown.get(page) ?? []).find((t) => !t.taken && t.text === text);
    if (hit) {
      hit.taken = true;
      return hit;
    }
    if (page.isClosed()) throw new Error(`the page closed before the toast '${text}' was shown`);
    if (Date.now() > deadline) {
      const seen = (shown.get(page) ?? []).map((t) => `${t.kind}: ${t.text}`);
      throw new Error(`no toast '${text}' within ${timeout} ms; the page showed: ${seen.length ? seen.join(' | ') : 'none'}`);
    }
    await new Promise((res) => setTimeout(res, 50));
  }
}
