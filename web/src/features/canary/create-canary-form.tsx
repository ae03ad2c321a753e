import { PLAN_LIMITS, type PlanId } from '@afterword/worker/contracts/plans';
import { DEFAULT_INTERVAL_SECONDS, INTERVAL_MAX_SECONDS, ZCreateCanaryInput, type TCreateCanaryInput } from '@afterword/worker/contracts/canary';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { hoursToIntervalSeconds } from './interval-hours';
import { defaultScheduleDraft, type ScheduleDraft, type ScheduleMode, scheduleFromDraft } from './schedule-draft';
import { ScheduleFields, ScheduleModeChoice } from './schedule-fields';

export const INTERVAL_HOURS_ERROR = 'Enter a number of hours greater than 0.';

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

const maxDays = INTERVAL_MAX_SECONDS / 86_400;
const maxHours = INTERVAL_MAX_SECONDS / 3600;

export function CreateCanaryForm({ onCreate, pending, allowance }: CreateCanaryFormProps) {
  const limit = allowance ? canaryAllowance(allowance) : null;
  const [hours, setHours] = useState(String(DEFAULT_INTERVAL_SECONDS / 3600));
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<ScheduleMode>('interval');
  const [draft, setDraft] = useState<ScheduleDraft>(defaultScheduleDraft);
  const [scheduleError, setScheduleError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    if (mode !== 'interval') {
      const result = scheduleFromDraft(mode, draft);
      if ('error' in result) {
        setScheduleError(result.error);
        return;
      }
      setScheduleError(null);
      if (await onCreate({ schedule: result.schedule, ...(name.trim() ? { name: name.trim() } : {}) })) setName('');
      return;
    }
    const intervalSeconds = hoursToIntervalSeconds(hours);
    if (intervalSeconds === null) {
      setError(INTERVAL_HOURS_ERROR);
      return;
    }
    // The server's own contract, so its bounds (one minute to 400 days) are explained before sending.
    const parsed = ZCreateCanaryInput.safeParse({ interval_seconds: intervalSeconds, name: name.trim() || undefined });
    if (!parsed.success) {
      setError(`The interval must be at least one minute and at most ${maxDays} days (${maxHours} hours).`);
      return;
    }
    setError(null);
    const input: TCreateCanaryInput = { interval_seconds: intervalSeconds, ...(name.trim() ? { name: name.trim() } : {}) };
    if (await onCreate(input)) setName('');
  }

  return (
    <form className="form-row" onSubmit={handleSubmit} noValidate aria-label="Create a canary">
      <ScheduleModeChoice mode={mode} onChange={setMode} />
      {mode === 'interval' ? (
        <TextField
          label="Check-in interval (hours)"
          name="interval_hours"
          inputMode="decimal"
          autoComplete="off"
          required
          value={hours}
          onChange={(e) => setHours(e.target.value)}
          hint={`How long you can go without checking in. 24 means once a day. At least one minute, at most ${maxDays} days (${maxHours} hours).`}
          error={error}
        />
      ) : (
        <ScheduleFields mode={mode} draft={draft} onChange={setDraft} error={scheduleError} />
      )}
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
