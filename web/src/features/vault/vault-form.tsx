import { LEGAL_NOTE_MAX, type VaultItemView } from '@afterword/worker/contracts/vault';
import { useRef, useState, type FormEvent } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Field, TextField } from '../../components/field';
import { toast } from '../../components/toast';
import { useSingleFlight } from '../../lib/use-single-flight';
import { ContactPicker } from '../contacts/contact-picker';
import type { ContactOption } from '../contacts/types';
import { ConditionFields } from './condition-fields';
import type { ConditionDraft } from './condition';
import { saveVaultItem, VaultRefusal, type UploadedAsset, type VaultDeps, type VaultErrors } from './save-vault-item';
import { T } from './texts';

const NO_ERRORS: VaultErrors = { fields: {}, form: [] };
const FRESH_CONDITION: ConditionDraft = { type: 'recipient_birthday', birthday: '', everyYear: false, exactAt: '' };

interface VaultFormProps {
  deps: VaultDeps;
  onSaved?: (item: VaultItemView) => void;
  /** Accepted contacts: picking one fills the recipient's user id (undefined while loading; omitted, no picker). */
  contacts?: readonly ContactOption[];
  withPicker?: boolean;
}

/**
 * A file, its recipient and when it is released. On a failure the form keeps everything as typed and
 * says why, in the server's words when it gave some; on success it clears and toasts.
 */
export function VaultForm({ deps, onSaved, contacts, withPicker = false }: VaultFormProps) {
  const [file, setFile] = useState<File | null>(null);
  const [recipient, setRecipient] = useState('');
  const [condition, setCondition] = useState<ConditionDraft>(FRESH_CONDITION);
  const [legalNote, setLegalNote] = useState('');
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<VaultErrors>(NO_ERRORS);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const uploaded = useRef<UploadedAsset | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { pending, run, isBusy } = useSingleFlight();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    await run(async () => {
      setErrors(NO_ERRORS);
      try {
        const item = await saveVaultItem(
          deps,
          { file, recipient, condition, legalNote, consent },
          {
            previous: uploaded.current,
            onUploaded: (asset) => {
              uploaded.current = asset;
            },
          },
        );
        toast.success(T.saved);
        setFile(null);
        if (fileInput.current) fileInput.current.value = '';
        setRecipient('');
        setCondition(FRESH_CONDITION);
        setLegalNote('');
        setConsent(false);
        onSaved?.(item);
      } catch (error) {
        if (!(error instanceof VaultRefusal)) console.error('Saving the vault item failed', error);
        setErrors(error instanceof VaultRefusal ? error.errors : { fields: {}, form: [T.saveFailed] });
        toast.error(T.saveFailed);
      }
    });
  }

  return (
    <form ref={formRef} className="create-form" onSubmit={handleSubmit} noValidate aria-label={T.formLabel}>
      <Field label={T.fileLabel} hint={T.fileHint} error={errors.fields.file} required>
        {(control) => <input ref={fileInput} type="file" name="file" className="input" onChange={(e) => setFile(e.target.files?.[0] ?? null)} {...control} />}
      </Field>
      {withPicker ? (
        <ContactPicker
          contacts={contacts}
          selected={contacts?.find((c) => c.user_id === recipient.trim().toLowerCase())}
          onPick={(c) => setRecipient(c.user_id)}
        />
      ) : null}
      <TextField
        label={T.recipientLabel}
        name="recipient_user_id"
        required
        autoComplete="off"
        spellCheck={false}
        value={recipient}
        onChange={(e) => setRecipient(e.target.value)}
        hint={T.recipientHint}
        error={errors.fields.recipient}
      />
      <ConditionFields value={condition} onChange={setCondition} errors={errors.fields} />
      <Field label={T.legalNoteLabel} hint={T.legalNoteHint} error={errors.fields.legalNote}>
        {(control) => (
          <textarea
            className="input textarea"
            name="legal_note"
            rows={3}
            maxLength={LEGAL_NOTE_MAX}
            value={legalNote}
            onChange={(e) => setLegalNote(e.target.value)}
            {...control}
          />
        )}
      </Field>
      <CheckboxField
        name="consent"
        required
        label={T.consentLabel}
        checked={consent}
        onChange={(e) => setConsent(e.target.checked)}
        error={errors.fields.consent}
      />
      {errors.form.length ? (
        <div role="alert" className="alert">
          {errors.form.map((m, i) => (
            <p key={i} className="alert__line">
              {m}
            </p>
          ))}
        </div>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? T.submitting : T.submit}
      </Button>
    </form>
  );
}
