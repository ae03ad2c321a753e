import { useEffect, useState } from 'react';
import { Skeleton } from '../../components/skeleton';
import { getToken } from '../../lib/session';

export const audioUrl = (id: string) => `/api/message/${encodeURIComponent(id)}/audio`;

type AudioState = { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'failed' };

/**
 * The recording needs the bearer header, which an <audio src> cannot send: fetch it as a blob and
 * play it through an object URL, released again when the page leaves.
 */
export function AudioPlayer({ messageId, label = 'Voice recording' }: { messageId: string; label?: string }) {
  const [state, setState] = useState<AudioState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    setState({ kind: 'loading' });
    const token = getToken();
    fetch(audioUrl(messageId), { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`audio ${res.status}`);
        url = URL.createObjectURL(await res.blob());
        setState({ kind: 'ready', url });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Could not load the recording', error);
        setState({ kind: 'failed' });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [messageId]);

  if (state.kind === 'loading') return <Skeleton lines={1} label="Loading the recording" />;
  if (state.kind === 'failed') return <p className="muted">The recording could not be loaded. Reload the page to try again.</p>;
  return <audio className="audio" controls preload="metadata" src={state.url} aria-label={label} />;
}
