import { DEADMAN_MAX_HOURS, ZDeadmanSetupInput, type TDeadman } from '@afterword/worker/contracts/deadman';
import { useState, type FormEvent } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { formatDateTime } from '../../lib/format-time';
import { Time } from '../../components/time';

export const DEADMAN_CONFIRM_TEXT = 'This will delete your account if you miss check-ins. Continue?';
export const DEADMAN_HOURS_ERROR = `Enter a number of hours greater than 0 and at most ${DEADMAN_MAX_HOURS}.`;

interface DeadmanSectionProps {
  /** Loaded: the page shows the loading and error states (components/query-state.tsx). */
  deadman: TDeadman;
  nowMs: number;
  /** Each resolves true on success. */
  onSetup: (hours: number) => Promise<boolean>;
  onCancel: () => Promise<boolean>;
  pending: boolean;
}

/** docs/product.md "Dead-man's switch": set up (hours, then a confirm) or cancel the dead-man's switch. */
export function DeadmanSection({ deadman, nowMs, onSetup, onCancel, pending }: DeadmanSectionProps) {
  const [hoursText, setHoursText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirmHours, setConfirmHours] = useState<number | null>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = hoursText.trim();
    const parsed = ZDeadmanSetupInput.safeParse({ hours: text ? Number(text) : Number.NaN });
    if (!parsed.success) {
      setError(DEADMAN_HOURS_ERROR);
      return;
    }
    setError(null);
    setConfirmHours(parsed.data.hours);
  }

  async function confirm() {
    if (confirmHours === null) return;
    if (await onSetup(confirmHours)) {
      setConfirmHours(null);
      setHoursText('');
    }
  }

  const active = deadman.active;

  return (
    <div className="deadman">
      <p className="server-status__line">
        Dead-man's switch: <Badge tone={active ? 'grace' : 'neutral'}>{active ? 'On' : 'Off'}</Badge>
      </p>
      {active ? (
        <>
          <p>
            If you do not check in
            {deadman.hours ? ` within ${deadman.hours} hours of your last check-in` : ''}, your account and everything in it will be deleted
            {deadman.deadline ? (
              <>
                {' '}
                after <Time value={deadman.deadline} show="both" />
              </>
            ) : null}
            . We warn you on every channel first and delete nothing until a day after that warning reaches you; releases due by then are delivered first. A
            check-in moves this deadline.
          </p>
          <Button variant="secondary" disabled={pending} onClick={() => void onCancel()}>
            Cancel dead-man's switch
          </Button>
        </>
      ) : (
        <p className="muted">Off. Your account stays, whatever happens to your check-ins.</p>
      )}
      <form className="form-row" onSubmit={handleSubmit} noValidate aria-label="Set up the dead-man's switch">
        <TextField
          label="Hours without a check-in"
          name="deadman_hours"
          inputMode="decimal"
          autoComplete="off"
          value={hoursText}
          onChange={(e) => setHoursText(e.target.value)}
          hint={`Up to ${DEADMAN_MAX_HOURS} hours (one year).`}
          error={error}
        />
        <Button type="submit" variant="secondary" disabled={pending}>
          {active ? "Change dead-man's switch" : "Set up dead-man's switch"}
        </Button>
      </form>
      <ConfirmDialog
        open={confirmHours !== null}
        onOpenChange={(open) => !open && setConfirmHours(null)}
        title={DEADMAN_CONFIRM_TEXT}
        description={
          confirmHours !== null
            ? `If you do not check in within ${confirmHours} hours (by ${formatDateTime(nowMs + confirmHours * 3_600_000)} if you stop now), your account and everything in it will be deleted once releases due by then are delivered.`
            : null
        }
        confirmLabel="Continue"
        confirmVariant="danger"
        pending={pending}
        onConfirm={() => void confirm()}
      />
    </div>
  );
}
