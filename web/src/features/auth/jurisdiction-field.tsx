import { EU_MEMBER_STATES, INTL_JURISDICTION_MAX, INTL_JURISDICTION_PLACEHOLDER, US_STATES, type DataPolicyRegion } from '@afterword/worker/contracts/regions';
import { TextField } from '../../components/field';
import { SelectField, toOptions } from '../../components/select';

interface JurisdictionFieldProps {
  region: DataPolicyRegion;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

const US_OPTIONS = toOptions(US_STATES);
const EU_OPTIONS = toOptions(EU_MEMBER_STATES);

/** docs/product.md "Accounts and sign-in": the jurisdiction control depends on the Legal Region. */
export function JurisdictionField({ region, value, onChange, error }: JurisdictionFieldProps) {
  if (region === 'US-HIPAA') {
    return (
      <SelectField
        label="State"
        name="legal_jurisdiction"
        required
        options={US_OPTIONS}
        placeholder="Choose a state"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={error}
      />
    );
  }
  if (region === 'EU-GDPR') {
    return (
      <SelectField
        label="Member state"
        name="legal_jurisdiction"
        required
        options={EU_OPTIONS}
        placeholder="Choose a member state"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={error}
      />
    );
  }
  return (
    <TextField
      label="Jurisdiction (optional)"
      name="legal_jurisdiction"
      placeholder={INTL_JURISDICTION_PLACEHOLDER}
      maxLength={INTL_JURISDICTION_MAX}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  );
}
