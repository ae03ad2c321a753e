import { PLAN_LIMITS, type PlanId } from '@afterword/worker/contracts/plans';
import { DEFAULT_INTERVAL_SECONDS, type TCreateCanaryInput } from '@afterword/worker/contracts/canary';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { type CadenceError, cadenceFromForm, defaultScheduleDraft, type ScheduleDraft, type ScheduleMode } from './schedule-draft';
import { CadenceFields } from './schedule-fields';

export { INTERVAL_HOURS_ERROR } from './schedule-draft';

interface CreateCanaryFormProps {
  /** Resolves true when the canary was created; the form then clears. */
  onCreate: (input: TCreateCanaryInput) => Promise<boolean>;
  pending: boolean;
  /** The account's plan and how many canaries it has: the limit is said before anyone runs into it. */
  allowance?: { plan: PlanId; owned: number };
}

/** The plan's canary limit in words, and whether it is reached (null for unlimited plans). */
export function canaryAllowance({ plan, owned }: { plan: PlanId; owned: number }): { text: string; full: boolean } | null {
  const { name, canaries } = PLAN_LIMITS[plan];
  if (!Number.isFinite(canaries)) return null;
  const allows = `Your ${name} plan allows ${canaries} ${canaries === 1 ? 'canary' : 'canaries'}`;
  if (owned < canaries) return { text: `${allows}; you have ${owned}.`, full: false };
  const upgrade = plan === 'free' ? 'Upgrade to Plus for 3 canaries, or to Pro for unlimited canaries.' : 'Upgrade to Pro for unlimited canaries.';
  return { text: `${allows} and you have ${owned}: delete one or upgrade to add another. ${upgrade}`, full: true };
}

export function CreateCanaryForm({ onCreate, pending, allowance }: CreateCanaryFormProps) {
  const limit = allowance ? canaryAllowance(allowance) : null;
  const [hours, setHours] = useState(String(DEFAULT_INTERVAL_SECONDS / 3600));
  const [name, setName] = useState('');
  const [mode, setMode] = useState<ScheduleMode>('interval');
  const [draft, setDraft] = useState<ScheduleDraft>(defaultScheduleDraft);
  const [error, setError] = useState<CadenceError | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    // The server's own contracts, so their bounds (one minute to 400 days, the schedule's rules) are explained before sending.
    const result = cadenceFromForm(mode, hours, draft);
    if ('error' in result) {
      setError(result);
      return;
    }
    setError(null);
    const { cadence } = result;
    const input: TCreateCanaryInput = {
      ...(cadence.schedule ? { schedule: cadence.schedule } : { interval_seconds: cadence.interval_seconds }),
      ...(name.trim() ? { name: name.trim() } : {}),
    };
    if (await onCreate(input)) setName('');
  }

  return (
    <form className="form-row" onSubmit={handleSubmit} noValidate aria-label="Create a canary">
      <CadenceFields mode={mode} onModeChange={setMode} hours={hours} onHoursChange={setHours} draft={draft} onDraftChange={setDraft} error={error} />
      <TextField
        label="Name (optional)"
        name="name"
        maxLength={100}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="e.g. Daily phone check-in"
      />
      {limit ? (
        <p className={`form-row__full ${limit.full ? 'warning' : 'note'}`}>
          {limit.text} {limit.full ? <Link to="/pricing">See plans</Link> : null}
        </p>
      ) : null}
      <Button type="submit" disabled={pending}>
        Create canary
      </Button>
    </form>
  );
}
