/*
 * The capsule calls tRPC does not carry: the multipart upload of an audio or video item, and reading an
 * item of a capsule not yet open (only its author may, with the session's header, so a plain `src` will not do).
 */
import type { TMyCapsule } from '@afterword/worker/contracts/capsules';
import { useEffect, useState } from 'react';
import { restFetch } from '../../lib/rest';

/** POST /api/capsule/{id}/media (multipart: file, type, captions?). */
export async function uploadCapsuleMedia(capsuleId: string, file: File, type: 'audio' | 'video', captions: string | null): Promise<TMyCapsule> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('type', type);
  if (captions) form.append('captions', captions);
  const res = await restFetch(`/api/capsule/${capsuleId}/media`, { method: 'POST', body: form });
  return (await res.json()) as TMyCapsule;
}

/**
 * Where the player reads an item from: the path itself once the capsule is open to everyone; before,
 * the bytes fetched with the author's session into an object URL (revoked when the player goes).
 */
export function useMediaSource(path: string | null | undefined, open: boolean): string | null {
  const [url, setUrl] = useState<string | null>(open ? (path ?? null) : null);
  useEffect(() => {
    if (!path) return setUrl(null);
    if (open) return setUrl(path);
    let objectUrl: string | null = null;
    let cancelled = false;
    restFetch(path)
      .then((res) => res.blob())
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => !cancelled && setUrl(null));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path, open]);
  return url;
}
