import { ZLoginInput, type TLoginInput, type TLoginResult } from '@afterword/worker/contracts/auth';
import { Link } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import { isGoogleSignInEnabled } from '../../lib/feature-flags';
import { setToken } from '../../lib/session';
import { toFieldErrors, type FieldErrors } from './field-errors';
import { GoogleSignInButton } from './google-sign-in-button';
import { releaseSignedUpEmail, takeSignedUpEmail } from './signed-up-email';

export const LOGIN_FALLBACK_ERROR = 'Login failed. Please check your email and password.';

interface LoginFormProps {
  login: (input: TLoginInput) => Promise<TLoginResult>;
  onSignedIn: () => void;
  /**
   * Runs after the token is stored and before onSignedIn, while the password is still in hand (the
   * E2EE keys are unlocked or created with it). Its failure does not fail the sign-in.
   */
  afterSignIn?: (password: string) => Promise<void>;
  /** E.g. an error handed back by the Google callback. */
  initialError?: string | null;
  showGoogle?: boolean;
}

export function LoginForm({ login, onSignedIn, afterSignIn, initialError = null, showGoogle = isGoogleSignInEnabled() }: LoginFormProps) {
  // Prefilled with the address just signed up with, when the visitor came from /signup.
  const [email, setEmail] = useState(takeSignedUpEmail);
  useEffect(releaseSignedUpEmail, []);
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(initialError);
  const { pending: submitting, run, isBusy } = useSingleFlight();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    const errors: FieldErrors = {};
    if (!email.trim()) errors.email = 'Email is required';
    if (!password) errors.password = 'Password is required';
    const parsed = ZLoginInput.safeParse({ email, password });
    if (Object.keys(errors).length || !parsed.success) {
      setFieldErrors({ ...(parsed.success ? {} : toFieldErrors(parsed.error)), ...errors });
      return;
    }
    setFieldErrors({});
    setFormError(null);
    await run(async () => {
      try {
        const result = await login(parsed.data);
        setToken(result.access_token);
      } catch (error) {
        setFormError(readApiError(error).detail ?? LOGIN_FALLBACK_ERROR);
        return;
      }
      if (afterSignIn) {
        try {
          await afterSignIn(parsed.data.password);
        } catch (error) {
          console.warn('Signed in, but the encryption keys could not be set up', error);
        }
      }
      onSignedIn();
    });
  }

  return (
    <form className="auth-form" onSubmit={handleSubmit} noValidate aria-label="Sign in">
      {formError ? (
        <p role="alert" className="alert">
          {formError}
        </p>
      ) : null}
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={fieldErrors.email}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldErrors.password}
      />
      <Button type="submit" className="button--block" disabled={submitting}>
        {submitting ? 'Signing in…' : 'Sign in'}
      </Button>
      {showGoogle ? (
        <div className="auth-form__alt">
          <GoogleSignInButton />
        </div>
      ) : null}
      <p className="auth-form__switch">
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <p className="auth-form__switch">
        <Link to="/signup">Need an account? Sign up</Link>
      </p>
    </form>
  );
}
