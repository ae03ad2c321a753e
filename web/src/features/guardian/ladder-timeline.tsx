import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import { actorLabel, causeLabel, readableDetail, stepLabel } from './ladder-format';
import { T } from './texts';
import type { LadderTransition } from './types';

interface LadderTimelineProps {
  /** Newest first, as the server sends them (its last 50). */
  transitions: readonly LadderTransition[];
  /** Guardian ids to names, so a step names the person instead of 'A guardian'. */
  guardianNames?: ReadonlyMap<string, string>;
}

/** Every recorded step of the ladder: when, what, who and why, newest first. */
export function LadderTimeline({ transitions, guardianNames }: LadderTimelineProps) {
  if (!transitions.length) return <EmptyState title={T.timelineEmpty} />;
  return (
    <ol className="timeline" aria-label="Ladder timeline">
      {transitions.map((t, i) => (
        <li key={`${t.at}-${t.kind}-${i}`} className={`timeline__item timeline__item--${t.kind}`}>
          <span className="timeline__dot" aria-hidden="true" />
          <p className="timeline__head">
            <time dateTime={t.at}>{formatDateTime(t.at)}</time>
            <span className="timeline__states">{stepLabel(t.kind)}</span>
          </p>
          <p className="timeline__detail">
            By {actorLabel(t.actor, guardianNames)}. {causeLabel(t.cause)}
            {t.detail ? <span className="timeline__note"> {readableDetail(t.detail)}</span> : null}
          </p>
        </li>
      ))}
    </ol>
  );
}
