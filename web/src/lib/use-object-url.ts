import { useEffect, useState } from 'react';

/**
 * An object URL for `blob` while the component shows it: made when the blob arrives, revoked when
 * the blob changes or the component leaves, so the bytes are not kept reachable behind a URL.
 * (Made in an effect, not a memo: StrictMode's extra unmount would otherwise revoke a URL still in use.)
 */
export function useObjectUrl(blob: Blob | undefined): string | null {
  const [made, setMade] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    setMade({ blob, url });
    return () => {
      URL.revokeObjectURL(url);
      setMade(null);
    };
  }, [blob]);
  // Never hand out the previous blob's URL during the render before the effect has caught up.
  return made && made.blob === blob ? made.url : null;
}
