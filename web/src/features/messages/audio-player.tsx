import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { restFetch } from '../../lib/rest';
import { useObjectUrl } from '../../lib/use-object-url';

export const audioUrl = (id: string) => `/api/message/${encodeURIComponent(id)}/audio`;

/** A recording never changes once stored, so one download serves every visit while it is cached. */
export const messageAudioQuery = (messageId: string) => ({
  queryKey: ['message-audio', messageId] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Blob> => {
    try {
      return await (await restFetch(audioUrl(messageId), { signal })).blob();
    } catch (error) {
      if (!signal.aborted) console.warn('Could not load the recording', error);
      throw error;
    }
  },
  staleTime: Infinity,
});

/**
 * The recording needs the bearer header, which an <audio src> cannot send: fetch it as a blob and
 * play it through an object URL, revoked again when the player leaves.
 */
export function AudioPlayer({ messageId, label = 'Voice recording' }: { messageId: string; label?: string }) {
  const recording = useQuery(messageAudioQuery(messageId));
  const url = useObjectUrl(recording.data);

  if (recording.isError) return <ErrorState title="The recording could not be loaded." read={recording} />;
  if (!url) return <Skeleton lines={1} label="Loading the recording" />;
  // biome-ignore lint/a11y/useMediaCaption: a user's own voice recording: no caption or transcript exists for it (see docs/decisions/formatting.md)
  return <audio className="audio" controls preload="metadata" src={url} aria-label={label} />;
}
