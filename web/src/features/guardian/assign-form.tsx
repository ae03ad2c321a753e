import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { ContactPicker } from '../contacts/contact-picker';
import type { ContactOption } from '../contacts/types';
import { T } from './texts';

interface AssignFormProps {
  /** Resolves true once the guardian was assigned (errors are already said). */
  onAssign: (input: { email: string; consent: true }) => Promise<boolean>;
  pending: boolean;
  /** Accepted contacts: picking one fills the email (undefined while loading; omitted, no picker). */
  contacts?: readonly ContactOption[];
  /** Whether the contacts are wanted at all (a page without the list passes false). */
  withPicker?: boolean;
}

/** Email and consent; on success the form clears and says 'Guardian assigned'. */
export function AssignForm({ onAssign, pending, contacts, withPicker = false }: AssignFormProps) {
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [consentError, setConsentError] = useState<string | null>(null);
  const [assigned, setAssigned] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const trimmed = email.trim();
    setEmailError(trimmed ? null : T.emailRequired);
    setConsentError(consent ? null : T.consentRequired);
    setAssigned(false);
    if (!trimmed || !consent) return;
    if (await onAssign({ email: trimmed, consent: true })) {
      setEmail('');
      setConsent(false);
      setAssigned(true);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Assign a guardian">
      {withPicker ? (
        <ContactPicker
          contacts={contacts}
          selected={contacts?.find((c) => c.email === email.trim().toLowerCase())}
          onPick={(c) => {
            setEmail(c.email);
            setEmailError(null);
            setAssigned(false);
          }}
        />
      ) : null}
      <TextField
        label="Email"
        name="email"
        type="email"
        required
        autoComplete="email"
        hint="They receive an email with a link to accept or decline."
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setAssigned(false);
        }}
        error={emailError}
      />
      <CheckboxField
        name="consent"
        required
        label="This person agreed to be asked about me"
        hint="If you stop checking in, they are asked whether they have heard from you."
        checked={consent}
        onChange={(e) => {
          setConsent(e.target.checked);
          if (e.target.checked) setConsentError(null);
        }}
        error={consentError}
      />
      <div className="button-row">
        <Button type="submit" disabled={pending}>
          {pending ? 'Assigning…' : 'Assign guardian'}
        </Button>
      </div>
      {assigned ? (
        <p role="alert" className="alert">
          {T.assigned}
        </p>
      ) : null}
    </form>
  );
}
