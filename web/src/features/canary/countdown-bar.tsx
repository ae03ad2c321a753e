import type { CountdownView } from './health';
import { formatRemaining } from './format';

/**
 * UI.md: a bar that empties towards the deadline, with the grace zone (the last 20 %) marked at the
 * end it empties into. The colour repeats the health; the text beside it says it.
 */
export function CountdownBar({ view }: { view: CountdownView }) {
  const percentLeft = Math.round(view.fractionLeft * 100);
  const gracePercent = Math.round(view.graceFraction * 100);
  return (
    <div className="countdown">
      {/* biome-ignore lint/a11y/useSemanticElements: a <meter> draws its own bar and renders no children; this bar is drawn (fill plus the grace zone) and only takes the meter role */}
      <div
        className={`countdown__track countdown__track--${view.health.toLowerCase()}`}
        role="meter"
        aria-label="Time left before the deadline"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percentLeft}
        aria-valuetext={`${formatRemaining(view.remainingMs)} left (${percentLeft} %)`}
      >
        <span className="countdown__fill" style={{ width: `${percentLeft}%` }} aria-hidden="true" />
        <span className="countdown__grace" style={{ width: `${gracePercent}%` }} aria-hidden="true" />
      </div>
      <p className="countdown__legend">
        The bar empties towards the deadline, at its left end. <span className="countdown__swatch" aria-hidden="true" /> Grace period: the last {gracePercent}{' '}
        %.
      </p>
    </div>
  );
}
