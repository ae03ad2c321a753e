import { canaryLabel, type TCanary, type TUpdateCanaryInput, ZUpdateCanaryInput } from '@afterword/worker/contracts/canary';
import { graceOf } from '@afterword/worker/contracts/canary-health';
import { graceWords, scheduleWords, ZCanarySchedule } from '@afterword/worker/contracts/canary-schedule';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Time } from '../../components/time';
import type { FieldIssue } from '../../lib/api-error';
import { formatInterval } from './format';
import {
  type Cadence,
  type CadenceError,
  cadenceFieldOf,
  cadenceFromForm,
  deadlineUnder,
  formOfCadence,
  type ScheduleDraft,
  type ScheduleMode,
} from './schedule-draft';
import { CadenceFields } from './schedule-fields';

export type SaveResult = { ok: true } | { ok: false; fieldIssues: FieldIssue[] | null };

interface EditScheduleFormProps {
  canary: TCanary;
  nowMs: number;
  /** PATCH /api/canary/{id} with the new cadence; the server's field issues come back to be shown under their fields. */
  onSave: (input: TUpdateCanaryInput) => Promise<SaveResult>;
  pending: boolean;
  onCancel: () => void;
}

/** The PATCH body of a cadence: a calendar schedule, or an interval (and `schedule: null`, back to the interval). */
export const updateOfCadence = (cadence: Cadence): TUpdateCanaryInput =>
  cadence.schedule ? { schedule: cadence.schedule } : { interval_seconds: cadence.interval_seconds, schedule: null };

const cadenceWords = (cadence: Cadence) =>
  cadence.schedule ? scheduleWords(ZCanarySchedule.parse(cadence.schedule)) : `Check in ${formatInterval(cadence.interval_seconds)}`;

/** The grace period the engine gives after a late warning (contracts/canary-health.ts `graceOf`), in words. */
const graceOfCadence = (cadence: Cadence) =>
  graceWords(
    Math.round(
      graceOf({
        intervalSeconds: 'interval_seconds' in cadence ? cadence.interval_seconds : 0,
        schedule: cadence.schedule ? ZCanarySchedule.parse(cadence.schedule) : null,
      }) / 1000,
    ),
  );

/**
 * Changes a canary's schedule: the create form's fields (components/schedule-fields.tsx), pre-filled with the
 * canary's interval or calendar rule, checked with the contract the server reads PATCH with
 * (`ZUpdateCanaryInput`), and what the change does said before saving — the next deadline under the new
 * schedule, from `canaryDeadline`, the function the server reads deadlines with.
 */
export function EditScheduleForm({ canary, nowMs, onSave, pending, onCancel }: EditScheduleFormProps) {
  const [initial] = useState(() => formOfCadence(canary.interval_seconds, canary.schedule));
  const [mode, setMode] = useState<ScheduleMode>(initial.mode);
  const [hours, setHours] = useState(initial.hours);
  const [draft, setDraft] = useState<ScheduleDraft>(initial.draft);
  const [error, setError] = useState<CadenceError | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const headingId = useId();

  const result = cadenceFromForm(mode, hours, draft);
  const cadence = 'cadence' in result ? result.cadence : null;
  const nextDeadline = cadence ? deadlineUnder(canary, cadence) : null;
  const currentDeadline = Date.parse(canary.deadline);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    if (!cadence) {
      setError(result as CadenceError);
      return;
    }
    const input = updateOfCadence(cadence);
    const parsed = ZUpdateCanaryInput.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setError({ field: cadenceFieldOf(issue.path) ?? 'time_zone', error: issue.message });
      return;
    }
    setError(null);
    setFormError(null);
    const saved = await onSave(input);
    if (saved.ok || !saved.fieldIssues) return;
    const placed = saved.fieldIssues.map((i) => ({ field: cadenceFieldOf(i.path), error: i.msg }));
    const first = placed.find((p): p is CadenceError => p.field !== null);
    if (first) setError(first);
    else setFormError(placed.map((p) => p.error).join(' '));
  }

  return (
    <form className="form-row" onSubmit={handleSubmit} noValidate aria-label={`Edit the schedule of ${canaryLabel(canary.name)}`}>
      <CadenceFields mode={mode} onModeChange={setMode} hours={hours} onHoursChange={setHours} draft={draft} onDraftChange={setDraft} error={error} />
      <section className="form-row__full note" aria-labelledby={headingId}>
        <h3 id={headingId} className="fieldset__legend">
          What changes
        </h3>
        <dl className="facts">
          <div>
            <dt>Now</dt>
            <dd>
              {canary.schedule_words ?? `Check in ${formatInterval(canary.interval_seconds)}`}; next deadline{' '}
              <Time value={canary.deadline} show="both" nowMs={nowMs} />
            </dd>
          </div>
          <div>
            <dt>After saving</dt>
            <dd>
              {cadence && nextDeadline !== null ? (
                <>
                  {cadenceWords(cadence)}; next deadline <Time value={nextDeadline} show="both" nowMs={nowMs} className="edit-schedule__next" />
                  {nextDeadline === currentDeadline ? ' (unchanged)' : null}
                </>
              ) : (
                'Complete the schedule above to see its next deadline.'
              )}
            </dd>
          </div>
        </dl>
        {canary.paused_until ? <p>The canary is paused: its next deadline is counted from the end of the pause.</p> : null}
        {cadence && nextDeadline !== null && nextDeadline <= nowMs ? (
          <p className="warning">
            That deadline has already passed. You will be warned at once, and nothing counts as missed until {graceOfCadence(cadence)} after the warning reaches
            you. Check in to start from now.
          </p>
        ) : null}
        {canary.status === 'missed' ? <p className="warning">This canary has missed its deadline: check in first, then change its schedule.</p> : null}
      </section>
      {formError ? (
        <p className="form-row__full field__error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="form-row__full button-row">
        <Button type="submit" disabled={pending}>
          Save schedule
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
