import { type GuardianStatus, isLiveGuardian } from '@afterword/worker/contracts/guardian';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { RevocableList } from '../../components/revocable-list';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import { STATUS_LABEL, T } from './texts';
import type { Guardian } from './types';
import { Email } from '../../components/email';

const STATUS_TONE: Record<GuardianStatus, BadgeTone> = { invited: 'grace', active: 'active', declined: 'neutral', revoked: 'neutral', resigned: 'neutral' };

interface GuardianListProps {
  guardians: readonly Guardian[];
  /** Resolves true once revoked. */
  onRevoke: (id: string) => Promise<boolean>;
  revokePending: boolean;
}

/** The owner's guardians, newest first, each with its state; invited and active ones can be revoked. */
export function GuardianList({ guardians, onRevoke, revokePending }: GuardianListProps) {
  return (
    <RevocableList
      items={guardians}
      label="Your guardians"
      empty={
        <EmptyState title="No guardians yet.">
          <p>Assign someone above. They are only asked about you if you stop checking in.</p>
        </EmptyState>
      }
      renderItem={(g, revoke) => (
        <>
          <div className="dev-item__head">
            <h4 className="dev-item__name">
              {g.name ? (
                <>
                  {g.name} (<Email value={g.email} />)
                </>
              ) : (
                <Email value={g.email} />
              )}
            </h4>
            <Badge tone={STATUS_TONE[g.status]}>{STATUS_LABEL[g.status]}</Badge>
          </div>
          <dl className="facts">
            <div>
              <dt>Invited</dt>
              <dd>
                <time dateTime={g.invited_at}>{formatDateTime(g.invited_at)}</time>
              </dd>
            </div>
            {g.responded_at ? (
              <div>
                <dt>Answered</dt>
                <dd>
                  <time dateTime={g.responded_at}>{formatDateTime(g.responded_at)}</time>
                </dd>
              </div>
            ) : null}
            {g.ended_at ? (
              <div>
                <dt>Ended</dt>
                <dd>
                  <time dateTime={g.ended_at}>{formatDateTime(g.ended_at)}</time>
                </dd>
              </div>
            ) : null}
          </dl>
          {isLiveGuardian(g.status) ? (
            <div className="button-row">
              <Button variant="danger" onClick={revoke}>
                Revoke<span className="visually-hidden"> guardian {g.email}</span>
              </Button>
            </div>
          ) : null}
        </>
      )}
      confirm={{
        title: T.revokeTitle,
        description: (g) =>
          g.status === 'invited'
            ? `The invitation to ${g.email} is withdrawn: its link stops working. This cannot be undone.`
            : `${g.name ?? g.email} stops being your guardian at once, and their earlier answers stop counting. This cannot be undone.`,
        label: T.revokeConfirm,
      }}
      onRevoke={onRevoke}
      revokePending={revokePending}
    />
  );
}
