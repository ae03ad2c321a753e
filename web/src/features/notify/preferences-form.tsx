import { NOTIFY_METHODS, ZNotifyPreferences, type NotifyMethod, type TNotifyPreferences } from '@afterword/worker/contracts/notify';
import { useRef, useState, type FormEvent } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { useSingleFlight } from '../../lib/use-single-flight';
import { toFieldErrors, type FieldErrors } from '../auth/field-errors';

export const METHOD_LABELS: Record<NotifyMethod, string> = { email: 'Email', sms: 'SMS', push: 'Push' };
const METHOD_HINTS: Record<NotifyMethod, string> = {
  email: 'To the address you sign in with.',
  sms: 'To your verified phone number (below).',
  push: 'To the browsers where you enabled push (below).',
};

const ALERTS = [
  { key: 'vaults', label: 'Vaults', hint: 'When a vault item is released or its condition changes.' },
  { key: 'messages', label: 'Messages', hint: 'When one of your messages is armed, released or fails, and when you receive one.' },
  { key: 'canary_events', label: 'Canary events', hint: 'Check-in reminders, grace periods and missed check-ins.' },
] as const;

/**
 * Which warnings no switch turns off (worker/src/domains/owner-notices/send-owner-notice.ts,
 * SAFETY_NOTICE_KINDS): while a missed check-in would release something of yours or ask your guardians.
 */
export const ALWAYS_WARNED =
  'Always sent, whatever these switches say, while a missed check-in would release a message of yours or ask your guardians: the reminder when a canary enters its grace period, the warning when it passes its deadline, the missed check-in, and each message armed to go unless you check in. If none of your chosen methods reaches you, we try every other one you have (email, verified phone, your devices), and nothing is released until one does.';

interface PreferencesFormProps {
  value: TNotifyPreferences;
  timeZone?: string;
  /** Resolves true once saved. */
  onSave: (preferences: TNotifyPreferences) => Promise<boolean>;
}

/**
 * docs/product.md "Delivery channels and notifications": methods, quiet hours {start, end} and alerts {vaults,
 * messages, canary_events}.
 */
export function PreferencesForm({ value, timeZone, onSave }: PreferencesFormProps) {
  const [methods, setMethods] = useState<NotifyMethod[]>(value.methods);
  const [start, setStart] = useState(value.quiet_hours.start);
  const [end, setEnd] = useState(value.quiet_hours.end);
  const [alerts, setAlerts] = useState(value.alerts);
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const { pending, run, isBusy } = useSingleFlight();

  const toggleMethod = (m: NotifyMethod, on: boolean) => setMethods((prev) => NOTIFY_METHODS.filter((x) => (x === m ? on : prev.includes(x))));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    const parsed = ZNotifyPreferences.safeParse({ methods, quiet_hours: { start, end }, alerts });
    if (!parsed.success) {
      setErrors(toFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    await run(async () => {
      await onSave(parsed.data);
    });
  }

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Notification preferences">
      <fieldset className="fieldset">
        <legend className="fieldset__legend">How to reach you</legend>
        {NOTIFY_METHODS.map((m) => (
          <CheckboxField
            key={m}
            label={METHOD_LABELS[m]}
            name="methods"
            value={m}
            hint={METHOD_HINTS[m]}
            checked={methods.includes(m)}
            onChange={(e) => toggleMethod(m, e.target.checked)}
          />
        ))}
        {errors.methods ? <p className="field__error">{errors.methods}</p> : null}
      </fieldset>
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Quiet hours</legend>
        <p className="field__hint">
          Reminders and alerts to you wait until quiet hours end{timeZone ? ` (${timeZone} time)` : ''}. Releases to your recipients are never delayed. The same
          start and end means no quiet hours.
        </p>
        <div className="form-row">
          <TextField label="Start" name="quiet_hours.start" type="time" value={start} onChange={(e) => setStart(e.target.value)} />
          <TextField label="End" name="quiet_hours.end" type="time" value={end} onChange={(e) => setEnd(e.target.value)} />
        </div>
        {errors.quiet_hours ? <p className="field__error">{errors.quiet_hours}</p> : null}
      </fieldset>
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Alerts</legend>
        {ALERTS.map((a) => (
          <CheckboxField
            key={a.key}
            label={a.label}
            name={`alerts.${a.key}`}
            hint={a.hint}
            checked={alerts[a.key]}
            onChange={(e) => setAlerts((prev) => ({ ...prev, [a.key]: e.target.checked }))}
          />
        ))}
        <p className="field__hint" data-testid="always-warned">
          {ALWAYS_WARNED}
        </p>
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Save preferences'}
      </Button>
    </form>
  );
}
