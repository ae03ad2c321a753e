import { useEffect } from 'react';

/** Each screen names itself in the tab and for screen-reader users arriving after a navigation. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Afterword` : 'Afterword';
  }, [title]);
}
