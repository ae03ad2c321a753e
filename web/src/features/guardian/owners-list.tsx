import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import { type AnswerActions, GuardianAnswers } from './guardian-answers';
import { StageBadge } from './stage-badge';
import { humanize, MY_ANSWER_LABEL } from './texts';
import type { GuardedOwner } from './types';
import { Email } from '../../components/email';

function Fact({ label, at }: { label: string; at: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <time dateTime={at}>{formatDateTime(at)}</time>
      </dd>
    </div>
  );
}

/** What the guardian may see of one person's ladder: its stage, the report, the hold (never messages or recipients). */
function OwnerFacts({ owner: o }: { owner: GuardedOwner }) {
  const isOpen = o.report?.status === 'open';
  return (
    <dl className="facts">
      {o.since ? <Fact label="Guardian since" at={o.since} /> : null}
      {isOpen && o.report ? (
        <div>
          <dt>Reports</dt>
          <dd>
            {o.report.votes} of {o.report.quorum} needed
          </dd>
        </div>
      ) : null}
      {isOpen && o.report?.window_ends_at ? <Fact label="Veto window ends" at={o.report.window_ends_at} /> : null}
      {o.hold_until ? <Fact label="On hold until" at={o.hold_until} /> : null}
      {o.death_confirmed_at ? <Fact label="Death confirmed" at={o.death_confirmed_at} /> : null}
    </dl>
  );
}

/** The guardian's own earlier answers about this person, newest first. */
function MyAnswers({ answers }: { answers: GuardedOwner['my_answers'] }) {
  if (!answers.length) return null;
  return (
    <>
      <h5 className="dev-item__log-title">Your answers</h5>
      <ul className="activity-list" aria-label="Your answers">
        {answers.map((a, i) => (
          <li key={`${a.at}-${a.kind}-${i}`} className="activity-list__item">
            <span>{MY_ANSWER_LABEL[a.kind] ?? humanize(a.kind)}</span>{' '}
            <time className="activity-list__time" dateTime={a.at}>
              {formatDateTime(a.at)}
            </time>
          </li>
        ))}
      </ul>
    </>
  );
}

/** People who chose the signed-in account as their guardian: where their ladder stands, and the guardian's answers. */
export function OwnersList({ owners, actions }: { owners: readonly GuardedOwner[]; actions: AnswerActions }) {
  if (!owners.length) {
    return (
      <EmptyState title="Nobody has chosen you yet.">
        <p>When someone names you as their guardian and you accept, they appear here.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="dev-list" aria-label="People who chose you">
      {owners.map((o) => (
        <li key={o.id} className="dev-item" aria-label={o.owner_name}>
          <div className="dev-item__head">
            <h4 className="dev-item__name">
              {o.owner_name} (<Email value={o.owner_email} />)
            </h4>
            <StageBadge stage={o.stage} />
          </div>
          <OwnerFacts owner={o} />
          <MyAnswers answers={o.my_answers} />
          <GuardianAnswers owner={o} actions={actions} />
        </li>
      ))}
    </ul>
  );
}
