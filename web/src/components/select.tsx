import type { ReactNode, SelectHTMLAttributes } from 'react';
import { Field } from './field';

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'required'> {
  label: string;
  options: readonly SelectOption[];
  /** Shown as a first, empty choice (e.g. 'Choose a state'). */
  placeholder?: string;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
}

/** A native select: the platform's keyboard and screen-reader behaviour comes for free. */
export function SelectField({ label, options, placeholder, hint, error, required, className, ...rest }: SelectFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} required={required}>
      {(control) => (
        <select className={['select', className].filter(Boolean).join(' ')} {...rest} {...control}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export const toOptions = (values: readonly string[]): SelectOption[] => values.map((v) => ({ value: v, label: v }));
