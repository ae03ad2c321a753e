import type { MonthWeek, Weekday } from '@afterword/worker/contracts/canary-schedule';
import { useId } from 'react';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { MONTH_WEEK_OPTIONS, type ScheduleDraft, type ScheduleMode, timeZoneOptions, WEEKDAY_OPTIONS } from './schedule-draft';

const MODES: { value: ScheduleMode; label: string }[] = [
  { value: 'interval', label: 'Every few hours (an interval)' },
  { value: 'weekly', label: 'On days of the week' },
  { value: 'monthly', label: 'Once a month' },
];

/** Interval (as the SPEC's form), weekly or monthly: a native radio group. */
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
  error: string | null;
}

/** The calendar part of the create form: the days (or the day of the month), the time, the zone and the reminder. */
export function ScheduleFields({ mode, draft, onChange, error }: ScheduleFieldsProps) {
  const set = (patch: Partial<ScheduleDraft>) => onChange({ ...draft, ...patch });
  return (
    <>
      {mode === 'weekly' ? (
        <fieldset className="form-row__full fieldset">
          <legend className="fieldset__legend">Check in by the time below on</legend>
          {WEEKDAY_OPTIONS.map((d) => (
            <CheckboxField
              key={d.value}
              label={d.label}
              checked={draft.days.includes(d.value)}
              onChange={(e) => set({ days: e.target.checked ? [...draft.days, d.value] : draft.days.filter((x) => x !== d.value) })}
            />
          ))}
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
      />
      <SelectField
        label="Time zone"
        value={draft.timeZone}
        onChange={(e) => set({ timeZone: e.target.value })}
        options={timeZoneOptions(draft.timeZone).map((z) => ({ value: z, label: z.replaceAll('_', ' ') }))}
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
        error={error}
      />
    </>
  );
}
