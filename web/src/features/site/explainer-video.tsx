import { useId } from 'react';
import { EXPLAINER_CAPTIONS_PATH, EXPLAINER_VIDEO_PATH } from '../../lib/links';

/** The 43-second narrated explainer with English captions (the press page and Help share it). */
export function ExplainerVideo() {
  const descriptionId = useId();
  return (
    <>
      <video
        controls
        preload="none"
        width={640}
        height={360}
        style={{ maxWidth: '100%', height: 'auto' }}
        src={EXPLAINER_VIDEO_PATH}
        aria-describedby={descriptionId}
      >
        <track kind="captions" srcLang="en" label="English" src={EXPLAINER_CAPTIONS_PATH} default />
      </video>
      <p id={descriptionId}>A 43-second narrated introduction to Afterword, with English captions.</p>
      <p>
        <a href={EXPLAINER_VIDEO_PATH}>Watch the explainer video (WebM, 1 min)</a>
      </p>
    </>
  );
}
