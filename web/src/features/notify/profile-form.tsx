import { ZProfileUpdate, type ProfileView, type TProfileUpdate } from '@afterword/worker/contracts/profile';
import { useRef, useMemo, useState, type FormEvent } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { SelectField, toOptions } from '../../components/select';
import { copyText } from '../../lib/clipboard';
import { useSingleFlight } from '../../lib/use-single-flight';
import { toFieldErrors, type FieldErrors } from '../auth/field-errors';
import { suggestedTimeZone, timeZoneOptions } from './time-zones';
import { Email } from '../../components/email';

interface ProfileFormProps {
  profile: ProfileView;
  /** The browser's zone; injected so tests need not depend on the machine's. */
  browserZone?: string;
  onSave: (update: TProfileUpdate) => Promise<boolean>;
}

/** Display name and time zone, plus the user ID people need to address a message to this account. */
export function ProfileForm({ profile, browserZone, onSave }: ProfileFormProps) {
  const initial = suggestedTimeZone(profile.time_zone, browserZone);
  const [name, setName] = useState(profile.display_name);
  const [zone, setZone] = useState(initial.zone);
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const { pending, run, isBusy } = useSingleFlight();
  const zones = useMemo(() => toOptions(timeZoneOptions(profile.time_zone, initial.zone)), [profile.time_zone, initial.zone]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    const update: TProfileUpdate = { display_name: name, time_zone: zone };
    const parsed = ZProfileUpdate.safeParse(update);
    if (!parsed.success) {
      setErrors(toFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    await run(async () => {
      await onSave(update);
    });
  }

  return (
    <>
      <dl className="facts">
        <div>
          <dt>Email</dt>
          <dd>
            <Email value={profile.email} />
          </dd>
        </div>
        <div>
          <dt>Your user ID</dt>
          <dd className="break">
            <code>{profile.id}</code>
          </dd>
        </div>
      </dl>
      <p className="field__hint">Someone who wants to leave you a message needs your user ID.</p>
      <div className="button-row section-gap">
        <Button variant="secondary" onClick={() => void copyText(profile.id, 'User ID copied')}>
          Copy user ID
        </Button>
      </div>
      <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Profile">
        <div className="form-row">
          <TextField
            label="Display name"
            name="display_name"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            hint="Shown to the people who receive your messages."
            error={errors.display_name}
          />
          <SelectField
            label="Time zone"
            name="time_zone"
            options={zones}
            value={zone}
            onChange={(e) => setZone(e.target.value)}
            hint={initial.suggested ? `Suggested from this browser. Save to use it instead of ${profile.time_zone}.` : 'Quiet hours follow this time zone.'}
            error={errors.time_zone}
          />
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save profile'}
        </Button>
      </form>
    </>
  );
}
