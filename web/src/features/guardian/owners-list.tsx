import { Badge } from '../../components/badge';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../canary/format';
import { STAGE_LABEL } from './texts';
import type { GuardedOwner } from './types';

/** People who chose the signed-in account as their guardian, with where their ladder stands. */
export function OwnersList({ owners }: { owners: readonly GuardedOwner[] }) {
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
        <li key={o.id} className="dev-item">
          <div className="dev-item__head">
            <h4 className="dev-item__name">
              {o.owner_name} ({o.owner_email})
            </h4>
            <Badge tone={o.stage === 'watching' ? 'active' : o.stage === 'missed' || o.stage === 'on_hold' ? 'grace' : 'missed'}>{STAGE_LABEL[o.stage]}</Badge>
          </div>
          <dl className="facts">
            {o.since ? (
              <div>
                <dt>Guardian since</dt>
                <dd>
                  <time dateTime={o.since}>{formatDateTime(o.since)}</time>
                </dd>
              </div>
            ) : null}
            {o.hold_until ? (
              <div>
                <dt>On hold until</dt>
                <dd>
                  <time dateTime={o.hold_until}>{formatDateTime(o.hold_until)}</time>
                </dd>
              </div>
            ) : null}
            {o.death_confirmed_at ? (
              <div>
                <dt>Death confirmed</dt>
                <dd>
                  <time dateTime={o.death_confirmed_at}>{formatDateTime(o.death_confirmed_at)}</time>
                </dd>
              </div>
            ) : null}
          </dl>
        </li>
      ))}
    </ul>
  );
}
