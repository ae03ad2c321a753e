import { formatDateTime } from '../../lib/format-time';
import { LadderSteps } from './ladder-steps';
import { StageBadge } from './stage-badge';
import { NEXT_LABEL } from './texts';
import type { LadderView } from './types';

/** Where the owner's ladder stands, what happens next and when, in the server's own summary. */
export function LadderStatus({ ladder }: { ladder: LadderView }) {
  const { report, next } = ladder;
  const isOpen = report?.status === 'open';
  return (
    <>
      <LadderSteps stage={ladder.stage} />
      <p className="ladder-summary">{ladder.summary}</p>
      <dl className="facts">
        <div>
          <dt>Stage</dt>
          <dd>
            <StageBadge stage={ladder.stage} />
          </dd>
        </div>
        {next ? (
          <div>
            <dt>Next</dt>
            <dd>
              {NEXT_LABEL[next.what]}: <time dateTime={next.at}>{formatDateTime(next.at)}</time>
            </dd>
          </div>
        ) : null}
        {isOpen ? (
          <div>
            <dt>Reports</dt>
            <dd>
              {report.votes} of {report.quorum} needed
            </dd>
          </div>
        ) : null}
        {ladder.hold_until ? (
          <div>
            <dt>On hold until</dt>
            <dd>
              <time dateTime={ladder.hold_until}>{formatDateTime(ladder.hold_until)}</time>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Guardians</dt>
          <dd>
            {ladder.guardians.active} active, {ladder.guardians.invited} invited
          </dd>
        </div>
      </dl>
    </>
  );
}
