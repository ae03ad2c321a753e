import { ZNewPassword } from '@afterword/worker/contracts/auth';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { readApiError } from '../../lib/api-error';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { useSingleFlight } from '../../lib/use-single-flight';
import { NewPasswordFields } from './new-password-fields';
import { T } from './texts';

type PasswordErrors = { password?: string; confirm?: string };

interface NewPasswordStepDeps {
  /** Asked on every submit, even when the password is wrong too: false stops it (the key step says why). */
  keysAllowSubmit: () => boolean;
  /** Sends the reset with this password; rejects with the server's error. */
  save: (password: string) => Promise<void>;
}

/**
 * The reset's new password, typed twice and checked before anything is sent, one submission at a time. Kept
 * by the reset form, so what was typed stays while the key step above hides and shows the form.
 */
export function useNewPasswordStep({ keysAllowSubmit, save }: NewPasswordStepDeps) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const saving = useSingleFlight();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving.isBusy()) return;
    const found: PasswordErrors = {};
    const parsed = ZNewPassword.safeParse(password);
    if (!parsed.success) found.password = parsed.error.issues[0]?.message ?? 'Choose a new password';
    if (password !== confirm) found.confirm = T.passwordMismatch;
    setErrors(found);
    setFormError(null);
    if (!keysAllowSubmit()) return;
    if (Object.keys(found).length) return;
    await saving.run(async () => {
      try {
        await save(password);
      } catch (error) {
        // A 422's detail is its issues' messages joined: shown above the form unless one is the password's.
        const { fieldIssues, detail } = readApiError(error);
        const pw = fieldIssues?.find((i) => i.path[0] === 'new_password');
        if (pw) setErrors({ password: pw.msg });
        else setFormError(detail ?? T.resetFailed);
      }
    });
  }

  return { password, confirm, setPassword, setConfirm, errors, formError, formRef, submit, saving: saving.pending };
}

export type NewPasswordStepState = ReturnType<typeof useNewPasswordStep>;

/** The reset's last step: the new password, shown once the account's keys are taken care of. */
export function NewPasswordStep({ step }: { step: NewPasswordStepState }) {
  return (
    <form ref={step.formRef} onSubmit={step.submit} noValidate aria-label={T.resetTitle}>
      {step.formError ? (
        <p role="alert" className="alert">
          {step.formError}
        </p>
      ) : null}
      <NewPasswordFields
        password={step.password}
        confirm={step.confirm}
        onPassword={step.setPassword}
        onConfirm={step.setConfirm}
        errors={{ password: step.errors.password, confirm: step.errors.confirm }}
      />
      <Button type="submit" className="button--block" disabled={step.saving}>
        {step.saving ? T.resetSubmitting : T.resetSubmit}
      </Button>
    </form>
  );
}
