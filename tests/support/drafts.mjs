// The message draft a browser keeps (web/src/features/messages/message-draft.ts: IndexedDB
// 'afterword-drafts', store 'message-draft', key 'current'), read the way the app opens it (same version and
// store), so a probe never creates a database the app would then find without its store.
import { eventually } from './page.mjs';

/** The stored draft record's ciphertext as text, or null when there is none. */
export const storedDraft = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('afterword-drafts', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('message-draft');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('message-draft').objectStore('message-draft').get('current');
          get.onsuccess = () => {
            open.result.close();
            resolve(get.result ? new TextDecoder().decode(get.result.ct) : null);
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );

/** Waits until this page's browser holds a draft (`wanted` true; returns its text) or none (false). */
export const eventuallyStored = (page, wanted) =>
  eventually(
    async () => {
      const found = await storedDraft(page);
      return (found !== null) === wanted && (found ?? true);
    },
    wanted ? 'the draft is written' : 'the draft is dropped',
  );
