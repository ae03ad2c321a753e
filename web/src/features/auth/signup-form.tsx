import { PASSWORD_MIN, ZRegisterInput, type TRegisterInput } from '@afterword/worker/contracts/auth';
import { DATA_POLICY_REGIONS, DEFAULT_REGION, type DataPolicyRegion } from '@afterword/worker/contracts/regions';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { SelectField, toOptions } from '../../components/select';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import { toFieldErrors, type FieldErrors } from './field-errors';
import { JurisdictionField } from './jurisdiction-field';

export const SIGNUP_FALLBACK_ERROR = 'Sign up failed. Please check your info and try again.';
const REGION_OPTIONS = toOptions(DATA_POLICY_REGIONS);

interface SignupFormProps {
  register: (input: TRegisterInput) => Promise<unknown>;
  /** Told the email the account was made with (the login form is prefilled with it). */
  onRegistered: (email: string) => void;
}

export function SignupForm({ register, onRegistered }: SignupFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [region, setRegion] = useState<DataPolicyRegion>(DEFAULT_REGION);
  const [jurisdiction, setJurisdiction] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const { pending: submitting, run, isBusy } = useSingleFlight();

  function changeRegion(next: DataPolicyRegion) {
    setRegion(next);
    setJurisdiction(''); // A jurisdiction never carries over to another region (docs/product.md).
    setFieldErrors(({ legal_jurisdiction: _dropped, ...rest }) => rest);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    const trimmed = jurisdiction.trim();
    // docs/product.md "Accounts and sign-in": legal_jurisdiction is sent only when non-blank after trimming.
    const input: TRegisterInput = { email, password, data_policy_region: region, ...(trimmed ? { legal_jurisdiction: trimmed } : {}) };
    const parsed = ZRegisterInput.safeParse(input);
    if (!parsed.success) {
      setFieldErrors(toFieldErrors(parsed.error));
      return;
    }
    setFieldErrors({});
    setFormError(null);
    await run(async () => {
      try {
        await register(input);
        onRegistered(input.email);
      } catch (error) {
        setFormError(readApiError(error).detail ?? SIGNUP_FALLBACK_ERROR);
      }
    });
  }

  return (
    <form className="auth-form" onSubmit={handleSubmit} noValidate aria-label="Create account">
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
        autoComplete="new-password"
        required
        hint={`At least ${PASSWORD_MIN} characters.`}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldErrors.password}
      />
      <SelectField
        label="Legal Region"
        name="data_policy_region"
        options={REGION_OPTIONS}
        value={region}
        hint="Decides which data-protection rules apply to your account."
        onChange={(e) => changeRegion(e.target.value as DataPolicyRegion)}
        error={fieldErrors.data_policy_region}
      />
      <JurisdictionField region={region} value={jurisdiction} onChange={setJurisdiction} error={fieldErrors.legal_jurisdiction} />
      {formError ? (
        <p role="alert" className="alert">
          {formError}
        </p>
      ) : null}
      <Button type="submit" className="button--block" disabled={submitting}>
        {submitting ? 'Creating account…' : 'Create account'}
      </Button>
      <p className="auth-form__switch">
        <Link to="/login">Already have an account? Sign in</Link>
      </p>
    </form>
  );
}
