import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** Extra ids the box is described by (e.g. a warning shown below it). */
  describedBy?: string;
}

/** A native checkbox with its label beside it; hint and error are announced with it. */
export function CheckboxField({ label, hint, error, describedBy, className, ...rest }: CheckboxFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const described = [hintId, errorId, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['checkbox', className].filter(Boolean).join(' ')}>
      <input type="checkbox" id={id} className="checkbox__input" aria-describedby={described} aria-invalid={error ? true : undefined} {...rest} />
      <label htmlFor={id} className="checkbox__label">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint checkbox__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error checkbox__hint">
          {error}
        </p>
      ) : null}
    </div>
  );
}
