import { useMediaSource } from './capsule-media-api';
import type { Capsule } from './types';

type Item = Capsule['content'][number];

/**
 * A capsule's content items: text as text (never markup), audio and video in the browser's own players,
 * with the author's WebVTT captions as a captions track when given. `open`: the capsule is open to
 * everyone (its files are read by path); before that only its author sees it, and reads them with the session.
 */
export function CapsuleItems({ content, open = true }: { content: Capsule['content']; open?: boolean }) {
  let audio = 0;
  let video = 0;
  return (
    <div className="stack">
      {content.map((item, i) => {
        if (item.type === 'text')
          return (
            <p key={i} className="community-text">
              {item.data}
            </p>
          );
        const n = item.type === 'audio' ? ++audio : ++video;
        return <MediaItem key={item.data} item={item} open={open} label={`${item.type === 'audio' ? 'Recording' : 'Video'} ${n}`} />;
      })}
    </div>
  );
}

function MediaItem({ item, open, label }: { item: Item; open: boolean; label: string }) {
  const src = useMediaSource(item.data, open);
  const captions = useMediaSource(item.captions, open);
  if (!src) return <p className="muted">Loading {label.toLowerCase()}…</p>;
  const track = captions ? <track kind="captions" src={captions} srcLang="en" label="Captions" default /> : null;
  return (
    <figure className="capsule-media">
      {item.type === 'audio' ? (
        // biome-ignore lint/a11y/useMediaCaption: captions are the author's to give; the track is there when they did (docs/decisions/community.md)
        <audio controls preload="metadata" src={src} aria-label={label}>
          {track}
        </audio>
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: captions are the author's to give; the track is there when they did (docs/decisions/community.md)
        <video controls preload="metadata" src={src} aria-label={label} className="capsule-media__video">
          {track}
        </video>
      )}
      <figcaption className="muted">
        {label}
        {item.captions ? ' · captions' : ''}
      </figcaption>
    </figure>
  );
}
