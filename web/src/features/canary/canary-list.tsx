import { canaryLabel, type TCanary, type TUpdateCanaryInput } from '@afterword/worker/contracts/canary';
import { useState } from 'react';
import { HealthBadge, type CanaryHealth } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { copyText } from '../../lib/clipboard';
import { curlExample, pingUrl } from './canary-token';
import { formatInterval } from './format';
import { countdownView } from './health';
import { Time } from '../../components/time';
import { PauseControl } from './pause-control';
import { Modal } from '../../components/modal';
import { EditScheduleForm, type SaveResult } from './edit-schedule-form';

export const DELETE_CONFIRM_TEXT = 'Delete this canary?';

const SERVER_HEALTH: Record<TCanary['status'], CanaryHealth> = { active: 'Active', grace: 'Grace', missed: 'Missed' };

interface CanaryListProps {
  canaries: readonly TCanary[];
  nowMs: number;
  /** Where cron jobs reach the API, e.g. `location.origin`. */
  origin: string;
  /** Resolves true once deleted. */
  onDelete: (id: string) => Promise<boolean>;
  deletePending: boolean;
  /** Vacation pauses (absent: no pause control). */
  pauses?: { pause: (id: string, until: string) => Promise<boolean>; resume: (id: string) => Promise<boolean>; pending: boolean };
  /** Schedule changes (absent: no Edit schedule button). */
  edits?: { save: (id: string, input: TUpdateCanaryInput) => Promise<SaveResult>; pending: boolean };
}

export function CanaryList({ canaries, nowMs, origin, onDelete, deletePending, pauses, edits }: CanaryListProps) {
  const [confirming, setConfirming] = useState<TCanary | null>(null);

  if (!canaries.length) {
    return (
      <EmptyState title="No canaries yet.">
        <p>Create one above. Each canary has its own interval and its own token for cron jobs.</p>
      </EmptyState>
    );
  }

  async function confirmDelete() {
    if (!confirming) return;
    if (await onDelete(confirming.id)) setConfirming(null);
  }

  return (
    <>
      <ul className="canary-list">
        {canaries.map((canary) => (
          <CanaryItem key={canary.id} canary={canary} nowMs={nowMs} origin={origin} onDelete={() => setConfirming(canary)} pauses={pauses} edits={edits} />
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={DELETE_CONFIRM_TEXT}
        description={
          confirming ? `“${canaryLabel(confirming.name)}” and its check-in schedule end now, and its token stops working at once. This cannot be undone.` : null
        }
        confirmLabel="Delete canary"
        confirmVariant="danger"
        pending={deletePending}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}

function CanaryItem({
  canary,
  nowMs,
  origin,
  onDelete,
  pauses,
  edits,
}: {
  canary: TCanary;
  nowMs: number;
  origin: string;
  onDelete: () => void;
  pauses: CanaryListProps['pauses'];
  edits: CanaryListProps['edits'];
}) {
  const name = canaryLabel(canary.name);
  const [editing, setEditing] = useState(false);
  const health = countdownView(canary.last_check_in, canary.interval_seconds, nowMs, false, canary)?.health ?? SERVER_HEALTH[canary.status];
  const url = pingUrl(origin, canary.token);
  const curl = curlExample(origin, canary.token);
  const titleId = `canary-${canary.id}-name`;
  return (
    <li className="canary-item">
      <div className="canary-item__head">
        <h3 id={titleId} className="canary-item__name">
          {name}
        </h3>
        <HealthBadge health={health} />
      </div>
      <dl className="facts">
        {canary.schedule_words ? (
          <div>
            <dt>Schedule</dt>
            <dd>{canary.schedule_words}</dd>
          </div>
        ) : (
          <div>
            <dt>Interval</dt>
            <dd>{formatInterval(canary.interval_seconds)}</dd>
          </div>
        )}
        <div>
          <dt>Last check-in</dt>
          <dd>
            <Time value={canary.last_check_in} show="both" />
          </dd>
        </div>
        <div>
          <dt>Deadline</dt>
          <dd>
            <Time value={canary.deadline} show="both" />
          </dd>
        </div>
      </dl>
      {edits && canary.active ? (
        <>
          <div className="button-row">
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit schedule<span className="visually-hidden"> for {name}</span>
            </Button>
          </div>
          <Modal open={editing} onOpenChange={setEditing} title={`Edit the schedule of “${name}”`}>
            {editing ? (
              <EditScheduleForm
                canary={canary}
                nowMs={nowMs}
                pending={edits.pending}
                onCancel={() => setEditing(false)}
                onSave={async (input) => {
                  const saved = await edits.save(canary.id, input);
                  if (saved.ok) setEditing(false);
                  return saved;
                }}
              />
            ) : null}
          </Modal>
        </>
      ) : null}
      {pauses && canary.active ? (
        <PauseControl
          name={name}
          pausedUntil={canary.paused_until}
          nowMs={nowMs}
          onPause={(until) => pauses.pause(canary.id, until)}
          onResume={() => pauses.resume(canary.id)}
          pending={pauses.pending}
        />
      ) : null}
      <div className="canary-item__ping">
        <p className="canary-item__label">Ping URL for cron jobs (a POST checks in; keep it secret)</p>
        <code className="code-line">POST {url}</code>
        <pre className="code-block">
          <code>{curl}</code>
        </pre>
        <div className="button-row">
          <Button variant="secondary" onClick={() => void copyText(canary.token, 'Token copied')}>
            Copy token<span className="visually-hidden"> for {name}</span>
          </Button>
          <Button variant="secondary" onClick={() => void copyText(curl, 'Command copied')}>
            Copy curl command<span className="visually-hidden"> for {name}</span>
          </Button>
          <Button variant="danger" onClick={onDelete}>
            Delete<span className="visually-hidden"> canary {name}</span>
          </Button>
        </div>
      </div>
    </li>
  );
}
