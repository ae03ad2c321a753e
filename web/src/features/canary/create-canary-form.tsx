import { DEFAULT_INTERVAL_SECONDS, INTERVAL_MAX_SECONDS, ZCreateCanaryInput, type TCreateCanaryInput } from '@afterword/worker/contracts/canary';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { hoursToIntervalSeconds } from './interval-hours';

export const INTERVAL_HOURS_ERROR = 'Enter a number of hours greater than 0.';

interface CreateCanaryFormProps {
  /** Resolves true when the canary was created; the form then clears. */
  onCreate: (input: TCreateCanaryInput) => Promise<boolean>;
  pending: boolean;
}

const maxDays = INTERVAL_MAX_SECONDS / 86_400;
const maxHours = INTERVAL_MAX_SECONDS / 3600;

export function CreateCanaryForm({ onCreate, pending }: CreateCanaryFormProps) {
  const [hours, setHours] = useState(String(DEFAULT_INTERVAL_SECONDS / 3600));
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
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
      <TextField
        label="Check-in interval (hours)"
        name="interval_hours"
        inputMode="decimal"
        autoComplete="off"
        required
        value={hours}
        onChange={(e) => setHours(e.target.value)}
        hint="How long you can go without checking in. 24 means once a day."
        error={error}
      />
      <TextField
        label="Name (optional)"
        name="name"
        maxLength={100}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="e.g. Daily phone check-in"
      />
      <Button type="submit" disabled={pending}>
        Create canary
      </Button>
    </form>
  );
}
