import { type GuardianStatus, isLiveGuardian } from '@afterword/worker/contracts/guardian';
import { useState } from 'react';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
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
  const [confirming, setConfirming] = useState<Guardian | null>(null);

  if (!guardians.length) {
    return (
      <EmptyState title="No guardians yet.">
        <p>Assign someone above. They are only asked about you if you stop checking in.</p>
      </EmptyState>
    );
  }

  async function confirmRevoke() {
    if (confirming && (await onRevoke(confirming.id))) setConfirming(null);
  }

  return (
    <>
      <ul className="dev-list" aria-label="Your guardians">
        {guardians.map((g) => (
          <li key={g.id} className="dev-item">
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
                <Button variant="danger" onClick={() => setConfirming(g)}>
                  Revoke<span className="visually-hidden"> guardian {g.email}</span>
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={T.revokeTitle}
        description={
          confirming
            ? confirming.status === 'invited'
              ? `The invitation to ${confirming.email} is withdrawn: its link stops working. This cannot be undone.`
              : `${confirming.name ?? confirming.email} stops being your guardian at once, and their earlier answers stop counting. This cannot be undone.`
            : null
        }
        confirmLabel={T.revokeConfirm}
        confirmVariant="danger"
        pending={revokePending}
        onConfirm={() => void confirmRevoke()}
      />
    </>
  );
}
