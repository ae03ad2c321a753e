import type { KeyBundleView } from '@afterword/worker/contracts/e2ee';
import type { TChangePassword } from '@afterword/worker/contracts/auth';
import { ZNewPassword } from '@afterword/worker/contracts/auth';
import { useRef, useState, type FormEvent } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { toast } from '../../components/toast';
import { rewrapPrivateKey } from '../../crypto';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import { NewPasswordFields } from './new-password-fields';
import { T } from './texts';

type Field = 'current_password' | 'new_password' | 'confirm';

interface PasswordSectionProps {
  /** The caller's key bundle, or null without one. */
  mine: () => Promise<KeyBundleView | null>;
  changePassword: (input: TChangePassword) => Promise<unknown>;
}

/**
 * Password change: the private key is re-wrapped under the new password in the browser (same key pair,
 * so every message stays readable) and sent with the change; the server swaps both in one step.
 */
export function PasswordSection({ mine, changePassword }: PasswordSectionProps) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const [formError, setFormError] = useState<string | null>(null);
  const { pending, run, isBusy } = useSingleFlight();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    const found: Partial<Record<Field, string>> = {};
    if (!current) found.current_password = 'Enter your current password';
    const parsed = ZNewPassword.safeParse(next);
    if (!parsed.success) found.new_password = parsed.error.issues[0]?.message ?? 'Choose a new password';
    if (next !== confirm) found.confirm = T.passwordMismatch;
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length) return;

    await run(async () => {
      try {
        const bundle = await mine();
        let password_wrap: TChangePassword['password_wrap'];
        if (bundle) {
          try {
            password_wrap = await rewrapPrivateKey(bundle.password_wrap, { password: current }, { password: next });
          } catch (error) {
            // Checked here first: a wrong current password never needs to reach the server.
            if ((error as { code?: string }).code === 'wrong-key') {
              setErrors({ current_password: T.wrongCurrentPassword });
              return;
            }
            throw error;
          }
        }
        await changePassword({ current_password: current, new_password: next, ...(password_wrap ? { password_wrap } : {}) });
        setCurrent('');
        setNext('');
        setConfirm('');
        toast.success(T.passwordChanged);
      } catch (error) {
        const { fieldIssues: issues, detail } = readApiError(error);
        if (issues) {
          const byField: Partial<Record<Field, string>> = {};
          const rest: string[] = [];
          for (const { path, msg } of issues) {
            if (path[0] === 'current_password' || path[0] === 'new_password') byField[path[0]] ??= msg;
            else rest.push(msg);
          }
          setErrors(byField);
          setFormError(rest.length ? rest.join(' ') : null);
        } else {
          setFormError(detail ?? T.passwordChangeFailed);
        }
      }
    });
  }

  return (
    <form ref={formRef} className="password-form" onSubmit={submit} noValidate aria-label={T.passwordTitle}>
      <p>{T.passwordIntro}</p>
      {formError ? (
        <p role="alert" className="alert">
          {formError}
        </p>
      ) : null}
      <TextField
        label={T.currentPassword}
        name="current_password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={errors.current_password}
      />
      <NewPasswordFields
        password={next}
        confirm={confirm}
        onPassword={setNext}
        onConfirm={setConfirm}
        errors={{ password: errors.new_password, confirm: errors.confirm }}
      />
      <Button type="submit" disabled={pending}>
        {pending ? T.changingPassword : T.changePassword}
      </Button>
    </form>
  );
}
