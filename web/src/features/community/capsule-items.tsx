import type { Capsule } from './types';

/** A capsule's content items: text as text (never markup). Audio and video items are not made yet. */
export function CapsuleItems({ content }: { content: Capsule['content'] }) {
  return (
    <div className="stack">
      {content.map((item, i) =>
        item.type === 'text' ? (
          <p key={i} className="community-text">
            {item.data}
          </p>
        ) : null,
      )}
    </div>
  );
}
