import { ZLoginInput, type TLoginInput, type TLoginResult } from '@afterword/worker/contracts/auth';
import { Link } from '@tanstack/react-router';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import { isGoogleSignInEnabled } from '../../lib/feature-flags';
import { setToken } from '../../lib/session';
import { useHydrated } from '../../lib/use-hydrated';
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
  const formRef = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // /login is prerendered (web/scripts/prerender.mjs): someone may type, or the browser autofill, before
  // the script runs. Hydration keeps what the inputs hold but not in state, so it is taken from them once
  // mounted; with nothing typed, the address just signed up with on /signup is filled in. A layout effect:
  // it runs in hydration's own commit, so the next render already holds what was typed — any render before a
  // passive effect would write the empty state into the inputs, and the typing would vanish for a moment (seen
  // by tests/e2e/auth.test.mjs about once in forty loads).
  useLayoutEffect(() => {
    const typed = (name: string) => (formRef.current?.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';
    const typedEmail = typed('email');
    const prefill = typedEmail || takeSignedUpEmail();
    if (prefill) setEmail(prefill);
    const typedPassword = typed('password');
    if (typedPassword) setPassword(typedPassword);
    releaseSignedUpEmail();
  }, []);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  // An error handed back by the Google callback is known only in the browser: shown once mounted.
  useEffect(() => {
    if (initialError) setFormError(initialError);
  }, [initialError]);
  // Until hydrated, the submit button is disabled: pressing Enter then does nothing (a disabled default
  // button blocks implicit submission) rather than posting the form natively.
  const hydrated = useHydrated();
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
    <form ref={formRef} className="auth-form" method="post" onSubmit={handleSubmit} noValidate aria-label="Sign in">
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
      <Button type="submit" className="button--block" disabled={submitting || !hydrated}>
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
