import { ZEmail } from '@afterword/worker/contracts/auth';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import { T } from './texts';

/** /forgot-password: the answer is the same whether or not the account exists. */
export function ForgotPasswordForm({ request }: { request: (email: string) => Promise<unknown> }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const { pending, run, isBusy } = useSingleFlight();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    const parsed = ZEmail.safeParse(email);
    if (!email.trim()) return setError('Email is required');
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Enter a valid email');
    setError(null);
    setFormError(null);
    await run(async () => {
      try {
        await request(parsed.data);
        setSent(true);
      } catch (err) {
        setFormError(readApiError(err).detail ?? T.forgotFailed);
      }
    });
  }

  if (sent) {
    return (
      <div className="auth-form">
        <p role="status" className="note">
          {T.forgotSent}
        </p>
        <p className="auth-form__switch">
          <Link to="/login">{T.backToLogin}</Link>
        </p>
      </div>
    );
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-label={T.forgotTitle}>
      {formError ? (
        <p role="alert" className="alert">
          {formError}
        </p>
      ) : null}
      <TextField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error} />
      <Button type="submit" className="button--block" disabled={pending}>
        {pending ? T.forgotSending : T.forgotSend}
      </Button>
      <p className="auth-form__switch">
        <Link to="/login">{T.backToLogin}</Link>
      </p>
    </form>
  );
}
