import { PAUSE_MAX_DAYS } from '@afterword/worker/contracts/canary-schedule';
import { useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { Time } from '../../components/time';

const DAY_MS = 86_400_000;

/** "YYYY-MM-DD" of a local date `days` from `nowMs`, for a date input's bounds. */
function localDate(nowMs: number, days: number): string {
  const d = new Date(nowMs + days * DAY_MS);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The pause ends at the start of the chosen day, in the browser's zone; null for a date out of bounds. */
export function pauseEnd(date: string, nowMs: number): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const end = new Date(`${date}T00:00`).getTime();
  if (!(end > nowMs) || end - nowMs > PAUSE_MAX_DAYS * DAY_MS) return null;
  return new Date(end).toISOString();
}

interface PauseControlProps {
  name: string;
  pausedUntil: string | null;
  nowMs: number;
  onPause: (until: string) => Promise<boolean>;
  onResume: () => Promise<boolean>;
  pending: boolean;
}

/** Pause for vacation (at most 60 days; you are told a day before it ends), or end a pause now. */
export function PauseControl({ name, pausedUntil, nowMs, onPause, onResume, pending }: PauseControlProps) {
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (pausedUntil) {
    return (
      <div className="canary-item__pause">
        <p>
          Paused for a vacation until <Time value={pausedUntil} show="both" />. Nothing is due before then; you are told a day before it ends.
        </p>
        <Button variant="secondary" disabled={pending} onClick={() => void onResume()}>
          End the pause now<span className="visually-hidden"> for {name}</span>
        </Button>
      </div>
    );
  }
  async function submit() {
    const until = pauseEnd(date, nowMs);
    if (!until) {
      setError(`Choose a day from tomorrow to ${PAUSE_MAX_DAYS} days ahead.`);
      return;
    }
    setError(null);
    if (await onPause(until)) setDate('');
  }
  return (
    <div className="canary-item__pause">
      <TextField
        label={`Pause for vacation until (at most ${PAUSE_MAX_DAYS} days)`}
        type="date"
        min={localDate(nowMs, 1)}
        max={localDate(nowMs, PAUSE_MAX_DAYS - 1)}
        value={date}
        onChange={(e) => setDate(e.target.value)}
        hint="No deadline, reminder or missed check-in until the start of that day. You are told a day before it ends."
        error={error}
      />
      <Button variant="secondary" disabled={pending} onClick={() => void submit()}>
        Pause for vacation<span className="visually-hidden"> {name}</span>
      </Button>
    </div>
  );
}
