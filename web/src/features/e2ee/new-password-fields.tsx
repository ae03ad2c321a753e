import { PASSWORD_MIN } from '@afterword/worker/contracts/auth';
import { TextField } from '../../components/field';
import { T } from './texts';

interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  errors: { password?: string; confirm?: string };
}

/** A new password typed twice, as the password change and the reset both ask it (the same names, hints and autocomplete). */
export function NewPasswordFields({ password, confirm, onPassword, onConfirm, errors }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={T.newPassword}
        name="new_password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        error={errors.password}
        hint={`At least ${PASSWORD_MIN} characters.`}
      />
      <TextField
        label={T.confirmPassword}
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => onConfirm(e.target.value)}
        error={errors.confirm}
      />
    </>
  );
}
