/*
 * The capsule calls tRPC does not carry: the multipart upload of an audio or video item, and reading an
 * item of a capsule not yet open (only its author may, with the session's header, so a plain `src` will not do).
 */
import type { TMyCapsule } from '@afterword/worker/contracts/capsules';
import { useQuery } from '@tanstack/react-query';
import { restFetch } from '../../lib/rest';
import { useObjectUrl } from '../../lib/use-object-url';

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
 * the bytes fetched with the author's session and played through an object URL (the recording player's
 * way, features/messages/audio-player.tsx), revoked when the player goes.
 */
export function useMediaSource(path: string | null | undefined, open: boolean): string | null {
  const sealed = useQuery({
    queryKey: ['capsule-media', path] as const,
    queryFn: async ({ signal }) => (await restFetch(path!, { signal })).blob(),
    enabled: Boolean(path) && !open,
    staleTime: Infinity,
  });
  const url = useObjectUrl(open ? undefined : sealed.data);
  if (!path) return null;
  return open ? path : url;
}
