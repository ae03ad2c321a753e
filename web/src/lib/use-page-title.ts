import { useEffect } from 'react';
import { setPageTitle } from './document-title';

let prerenderedTitle = '';

/** Each screen names itself in the tab and for screen-reader users arriving after a navigation. */
export function usePageTitle(title: string) {
  // Effects do not run when a page is prerendered (src/prerender.tsx): the build reads the name here.
  if (import.meta.env.SSR) prerenderedTitle = title;
  useEffect(() => {
    setPageTitle(title);
  }, [title]);
}

/** The name the last prerendered page gave itself (src/prerender.tsx). */
export function takePrerenderedTitle(): string {
  const title = prerenderedTitle;
  prerenderedTitle = '';
  return title;
}
