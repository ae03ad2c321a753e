import { useEffect } from 'react';
import { setPageTitle } from './document-title';

/** Each screen names itself in the tab and for screen-reader users arriving after a navigation. */
export function usePageTitle(title: string) {
  useEffect(() => {
    setPageTitle(title);
  }, [title]);
}
