import { CONDITION_LABELS, VAULT_CONDITION_TYPES, type VaultConditionType } from '@afterword/worker/contracts/vault';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import type { ConditionDraft } from './condition';
import type { VaultErrors } from './save-vault-item';
import { T } from './texts';

const OPTIONS = VAULT_CONDITION_TYPES.map((type) => ({ value: type, label: CONDITION_LABELS[type] }));

interface ConditionFieldsProps {
  value: ConditionDraft;
  onChange: (value: ConditionDraft) => void;
  errors: VaultErrors['fields'];
}

/** The condition and only the input it needs: a birthday's month-day, an exact moment, or none. */
export function ConditionFields({ value, onChange, errors }: ConditionFieldsProps) {
  const set = (patch: Partial<ConditionDraft>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">{T.conditionLegend}</legend>
      <SelectField
        label={T.conditionLabel}
        name="condition_type"
        options={OPTIONS}
        value={value.type}
        onChange={(e) => set({ type: e.target.value as VaultConditionType })}
      />
      {value.type === 'recipient_birthday' ? (
        <>
          <TextField
            label={T.birthdayLabel}
            name="birthday"
            required
            inputMode="numeric"
            autoComplete="off"
            placeholder="MM-DD"
            value={value.birthday}
            onChange={(e) => set({ birthday: e.target.value })}
            hint={`${T.birthdayHint} ${T.birthdayNote}`}
            error={errors.birthday}
          />
          <CheckboxField
            name="every_year"
            label={T.everyYear}
            hint={T.everyYearHint}
            checked={value.everyYear}
            onChange={(e) => set({ everyYear: e.target.checked })}
            error={errors.everyYear}
          />
        </>
      ) : null}
      {value.type === 'exact_date' ? (
        <TextField
          label={T.exactLabel}
          name="condition_value"
          type="datetime-local"
          required
          value={value.exactAt}
          onChange={(e) => set({ exactAt: e.target.value })}
          hint={T.exactHint}
          error={errors.exactAt}
        />
      ) : null}
      {value.type === 'death_flag' ? <p className="field__hint">{T.deathNote}</p> : null}
    </fieldset>
  );
}
