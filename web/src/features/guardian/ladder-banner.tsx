import type { LadderStage } from '@afterword/worker/contracts/guardian';
import { Link } from '@tanstack/react-router';
import { T } from './texts';
import type { LadderView } from './types';

// A veto window is the one moment where doing nothing leads to a release: it interrupts (role="alert").
// A report still gathering votes, a hold, or a confirmation is told without interrupting.
const URGENT: readonly LadderStage[] = ['veto_window'];
const NOTICE: readonly LadderStage[] = ['reported', 'on_hold', 'confirmed'];

/** The dashboard's word on the guardian ladder; nothing at all while no death report is open. */
export function LadderBanner({ ladder }: { ladder: LadderView | undefined }) {
  if (!ladder) return null;
  const link = (
    <Link to="/app/guardian" className="ladder-banner__link">
      {T.bannerLink}
    </Link>
  );
  if (URGENT.includes(ladder.stage)) {
    return (
      <div role="alert" className="alert ladder-banner">
        <p className="alert__line">
          <strong>{ladder.summary}</strong>
        </p>
        <p className="alert__line">{T.bannerRefutes}</p>
        <p className="alert__line">{link}</p>
      </div>
    );
  }
  if (NOTICE.includes(ladder.stage)) {
    return (
      <div role="status" className="warning ladder-banner">
        <p className="alert__line">{ladder.summary}</p>
        <p className="alert__line">{link}</p>
      </div>
    );
  }
  return null;
}
