import { ZUpdateGuardianSettingsInput } from '@afterword/worker/contracts/guardian';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select';
import { quorumOptions, vetoWindowOptions } from './settings-options';
import type { GuardianSettings, UpdateGuardianSettings } from './types';

interface SettingsFormProps {
  settings: GuardianSettings;
  /** Invited or active guardians: the most the quorum may be. */
  liveGuardians: number;
  /** Resolves true once saved (a failure is already said). */
  onSave: (input: UpdateGuardianSettings) => Promise<boolean>;
  pending: boolean;
}

/** Quorum and veto window. The parent remounts it (key) when the saved settings change. */
export function SettingsForm({ settings, liveGuardians, onSave, pending }: SettingsFormProps) {
  const [quorum, setQuorum] = useState(String(settings.quorum));
  const [vetoHours, setVetoHours] = useState(String(settings.veto_window_hours));
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    // The contract's own limits, before anything is sent.
    const parsed = ZUpdateGuardianSettingsInput.safeParse({ quorum: Number(quorum), veto_window_hours: Number(vetoHours) });
    setError(parsed.success ? null : parsed.error.issues.map((i) => i.message).join(' '));
    if (parsed.success) await onSave(parsed.data);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Guardian settings">
      <SelectField
        label="Reports needed"
        name="quorum"
        hint={`How many of your guardians must report your death before the veto window opens. You have ${liveGuardians} (invited or active).`}
        options={quorumOptions(liveGuardians, settings.quorum)}
        value={quorum}
        onChange={(e) => setQuorum(e.target.value)}
      />
      <SelectField
        label="Veto window"
        name="veto_window_hours"
        hint="How long you have to refute a reported death by checking in. A change applies to the next report."
        options={vetoWindowOptions(settings.veto_window_hours)}
        value={vetoHours}
        onChange={(e) => setVetoHours(e.target.value)}
      />
      {error ? (
        <p role="alert" className="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save settings'}
        </Button>
      </div>
    </form>
  );
}
