import type { TRehearsal, TRehearsalReach, TRehearsalStep } from '@afterword/worker/contracts/rehearsal';
import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { Time } from '../../components/time';
import { localizeServerTimes } from '../../lib/format-time';

const CHANNEL_LABEL: Record<TRehearsalReach['channel'], string> = { email: 'Email', sms: 'SMS', push: 'Push', in_app: 'In the app' };

/** "Email o•••@example.com: accepted", "Push 2 devices: delivered to 2 of 2 devices". */
export const reachText = (r: TRehearsalReach) => `${CHANNEL_LABEL[r.channel]}${r.address ? ` ${r.address}` : ''}: ${r.note}`;

/** Which dot a step gets: a gap is red, a release or the erasure the accent, a warning, miss or scheduled deletion amber. */
function tone(step: TRehearsalStep) {
  if (step.gaps.length) return 'failed';
  if (step.kind === 'message_released' || step.kind === 'vault_released' || step.kind === 'account_deleted') return 'releasing';
  if (step.kind === 'warning' || step.kind === 'miss' || step.kind === 'message_armed' || step.kind === 'deletion_scheduled') return 'armed';
  return 'scheduled';
}

/**
 * A rehearsal's report: the gaps first (what would not reach you), then each step in time order with its time in
 * words, what it means, and what its TEST copy reached.
 */
export function RehearsalTimeline({ report, nowMs }: { report: TRehearsal; nowMs: number }) {
  return (
    <div className="stack">
      {report.gaps.length ? (
        <div role="alert" className="warning" data-testid="rehearsal-gaps">
          <p className="alert__line">Gaps found — fix these while you can:</p>
          <ul>
            {report.gaps.map((g) => (
              <li key={g}>{g}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="note">No gaps found: every warning reached you on a channel you chose.</p>
      )}
      <p className="field__hint">
        This is a rehearsal from <Time value={report.created_at} />: nothing was released and nothing was counted. Steps marked “Only if reported” happen only
        if your guardians report your death when first asked.
      </p>
      {report.steps.length ? (
        <ol className="timeline" aria-label="What would happen">
          {report.steps.map((s, i) => (
            <li key={`${s.at}-${s.kind}-${i}`} className={`timeline__item timeline__item--${tone(s)}`} data-kind={s.kind}>
              <span className="timeline__dot" aria-hidden="true" />
              <p className="timeline__head">
                <Time value={s.at} show="both" nowMs={nowMs} />
                <span className="timeline__states">{s.title}</span>
                {s.conditional ? <Badge>Only if reported</Badge> : null}
              </p>
              <p className="timeline__detail">{localizeServerTimes(s.detail)}</p>
              {s.reached.length ? (
                <ul className="timeline__detail" aria-label="What the TEST copy reached">
                  {s.reached.map((r) => (
                    <li key={`${r.channel}-${r.address}`}>
                      <Badge tone={r.ok ? 'active' : 'missed'}>{r.ok ? 'Reached' : 'Failed'}</Badge> {reachText(r)}
                    </li>
                  ))}
                </ul>
              ) : null}
              {s.gaps.map((g) => (
                <p key={g} className="timeline__detail field__error">
                  {g}
                </p>
              ))}
            </li>
          ))}
        </ol>
      ) : (
        <EmptyState title="Nothing would happen.">
          <p>With no active canary, missing check-ins sets nothing going. Create a canary on Canary Status.</p>
        </EmptyState>
      )}
      {report.others_told.length ? (
        <section aria-label="Others told">
          <h3 className="dev-subtitle">Told it was a rehearsal</h3>
          <ul>
            {report.others_told.map((o) => (
              <li key={`${o.who}-${o.address}`}>
                {o.who === 'recipient' ? 'Recipient' : 'Guardian'} {o.address}: {o.note}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
