import { INTERVAL_MAX_SECONDS } from '@afterword/worker/contracts/canary';
import type { MonthWeek, Weekday } from '@afterword/worker/contracts/canary-schedule';
import { useId } from 'react';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { type CadenceError, MONTH_WEEK_OPTIONS, type ScheduleDraft, type ScheduleMode, timeZoneOptions, WEEKDAY_OPTIONS } from './schedule-draft';

const MODES: { value: ScheduleMode; label: string }[] = [
  { value: 'interval', label: 'Every few hours (an interval)' },
  { value: 'weekly', label: 'On days of the week' },
  { value: 'monthly', label: 'Once a month' },
];

/** Interval (the original form), weekly or monthly: a native radio group. */
export function ScheduleModeChoice({ mode, onChange }: { mode: ScheduleMode; onChange: (mode: ScheduleMode) => void }) {
  const name = useId();
  return (
    <fieldset className="form-row__full fieldset">
      <legend className="fieldset__legend">When must you check in?</legend>
      {MODES.map((m) => (
        <div key={m.value} className="checkbox">
          <input type="radio" id={`${name}-${m.value}`} name={name} className="checkbox__input" checked={mode === m.value} onChange={() => onChange(m.value)} />
          <label htmlFor={`${name}-${m.value}`} className="checkbox__label">
            {m.label}
          </label>
        </div>
      ))}
    </fieldset>
  );
}

interface ScheduleFieldsProps {
  mode: Exclude<ScheduleMode, 'interval'>;
  draft: ScheduleDraft;
  onChange: (draft: ScheduleDraft) => void;
  /** A problem with what was typed, shown under its field. */
  error: CadenceError | null;
}

/** The calendar part of the create and edit forms: the days (or the day of the month), the time, the zone and the reminder. */
export function ScheduleFields({ mode, draft, onChange, error }: ScheduleFieldsProps) {
  const set = (patch: Partial<ScheduleDraft>) => onChange({ ...draft, ...patch });
  const errorOf = (field: CadenceError['field']) => (error?.field === field ? error.error : null);
  const daysErrorId = useId();
  return (
    <>
      {mode === 'weekly' ? (
        <fieldset
          className="form-row__full fieldset"
          aria-describedby={errorOf('days') ? daysErrorId : undefined}
          aria-invalid={errorOf('days') ? true : undefined}
        >
          <legend className="fieldset__legend">Check in by the time below on</legend>
          {WEEKDAY_OPTIONS.map((d) => (
            <CheckboxField
              key={d.value}
              label={d.label}
              checked={draft.days.includes(d.value)}
              onChange={(e) => set({ days: e.target.checked ? [...draft.days, d.value] : draft.days.filter((x) => x !== d.value) })}
            />
          ))}
          {errorOf('days') ? (
            <p id={daysErrorId} className="field__error">
              {errorOf('days')}
            </p>
          ) : null}
        </fieldset>
      ) : (
        <>
          <SelectField
            label="Day of the month"
            value={draft.monthlyBy === 'day' ? draft.day : draft.week}
            onChange={(e) => {
              const v = e.target.value;
              if (/^\d+$/.test(v)) set({ monthlyBy: 'day', day: v });
              else set({ monthlyBy: 'weekday', week: v as MonthWeek });
            }}
            options={[
              ...Array.from({ length: 31 }, (_, i) => ({
                value: String(i + 1),
                label: `The ${i + 1}${i === 0 || i === 20 || i === 30 ? 'st' : i === 1 || i === 21 ? 'nd' : i === 2 || i === 22 ? 'rd' : 'th'}`,
              })),
              ...MONTH_WEEK_OPTIONS.map((w) => ({ value: w.value, label: `The ${w.value} …` })),
            ]}
            hint="The 29th to 31st fall on a shorter month's last day."
            error={errorOf('day')}
          />
          {draft.monthlyBy === 'weekday' ? (
            <SelectField label="Weekday" value={draft.weekday} onChange={(e) => set({ weekday: e.target.value as Weekday })} options={WEEKDAY_OPTIONS} />
          ) : null}
        </>
      )}
      <TextField
        label="Check in by (time)"
        name="schedule_time"
        type="time"
        required
        value={draft.time}
        onChange={(e) => set({ time: e.target.value })}
        hint="On a day when the clocks change, a time that does not exist moves later by the change, never earlier."
        error={errorOf('time')}
      />
      <SelectField
        label="Time zone"
        value={draft.timeZone}
        onChange={(e) => set({ timeZone: e.target.value })}
        options={timeZoneOptions(draft.timeZone).map((z) => ({ value: z, label: z.replaceAll('_', ' ') }))}
        error={errorOf('time_zone')}
      />
      <TextField
        label="Remind me before (hours)"
        name="grace_hours"
        inputMode="decimal"
        autoComplete="off"
        required
        value={draft.graceHours}
        onChange={(e) => set({ graceHours: e.target.value })}
        hint="You are reminded this long before each deadline; a check-in from then on counts for that deadline."
        error={errorOf('grace')}
      />
    </>
  );
}

const maxDays = INTERVAL_MAX_SECONDS / 86_400;
const maxHours = INTERVAL_MAX_SECONDS / 3600;

interface CadenceFieldsProps {
  mode: ScheduleMode;
  onModeChange: (mode: ScheduleMode) => void;
  /** The interval in hours, as typed. */
  hours: string;
  onHoursChange: (hours: string) => void;
  draft: ScheduleDraft;
  onDraftChange: (draft: ScheduleDraft) => void;
  error: CadenceError | null;
}

/** When check-ins are due, as the create and edit forms ask it: an interval in hours, or a calendar schedule. */
export function CadenceFields({ mode, onModeChange, hours, onHoursChange, draft, onDraftChange, error }: CadenceFieldsProps) {
  return (
    <>
      <ScheduleModeChoice mode={mode} onChange={onModeChange} />
      {mode === 'interval' ? (
        <TextField
          label="Check-in interval (hours)"
          name="interval_hours"
          inputMode="decimal"
          autoComplete="off"
          required
          value={hours}
          onChange={(e) => onHoursChange(e.target.value)}
          hint={`How long you can go without checking in. 24 means once a day. At least one minute, at most ${maxDays} days (${maxHours} hours).`}
          error={error?.field === 'interval' ? error.error : null}
        />
      ) : (
        <ScheduleFields mode={mode} draft={draft} onChange={onDraftChange} error={error} />
      )}
    </>
  );
}
