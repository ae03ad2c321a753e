import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';

export const ADD_CONTACT_SENT = 'Invitation sent. They appear in your pickers once they accept.';

interface AddContactFormProps {
  /** Resolves true once the invitation is on its way (errors are already said). */
  onAdd: (email: string) => Promise<boolean>;
  pending: boolean;
}

/** An email address; says before sending that an email goes out, and after that it did. */
export function AddContactForm({ onAdd, pending }: AddContactFormProps) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const trimmed = email.trim();
    setSent(false);
    if (!trimmed) {
      setError('Enter their email address.');
      return;
    }
    setError(null);
    if (await onAdd(trimmed)) {
      setEmail('');
      setSent(true);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Add a contact">
      <TextField
        label="Email"
        name="email"
        type="email"
        required
        autoComplete="email"
        hint="They get an email with a link to accept or decline, whether or not they use Afterword yet. Once they accept, you can pick each other by name."
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setSent(false);
        }}
        error={error}
      />
      <div className="button-row">
        <Button type="submit" disabled={pending}>
          {pending ? 'Sending…' : 'Send invitation'}
        </Button>
      </div>
      {sent ? (
        <p role="status" className="note">
          {ADD_CONTACT_SENT}
        </p>
      ) : null}
    </form>
  );
}
