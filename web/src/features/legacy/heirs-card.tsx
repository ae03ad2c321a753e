import { LEGACY_PART_TEXT, type TLegacyPart, ZLegacyPart } from '@afterword/worker/contracts/legacy';
import { useRef, useState, type FormEvent } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { QueryState } from '../../components/query-state';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { ContactPicker } from '../contacts/contact-picker';
import { useContactOptions } from '../contacts/queries';
import { T } from './texts';

type Heir = { recipient_user_id: string; name: string; parts: TLegacyPart[] };

/**
 * Share, then delete (docs/decisions/legacy-copies.md): who receives a copy of which parts before a
 * dead-man deletion. The server keeps the whole list; each change sends it whole.
 */
export function HeirsCard() {
  const heirs = trpc.legacy.heirs.useQuery();
  const utils = trpc.useUtils();
  const save = trpc.legacy.setHeirs.useMutation({
    onSuccess: (data) => utils.legacy.heirs.setData(undefined, data),
  });
  const saveList = async (list: Heir[]) => {
    try {
      await save.mutateAsync({ heirs: list.map((h) => ({ recipient_user_id: h.recipient_user_id, parts: h.parts })) });
      toast.success(T.saved);
      return true;
    } catch (err) {
      toast.error(readApiError(err).detail ?? T.failed);
      return false;
    }
  };
  return (
    <Card title={T.heirsTitle}>
      <p>{T.heirsIntro}</p>
      <QueryState query={heirs} loading="Loading who receives a copy" failed={T.loadFailed} lines={2}>
        {(data) => (
          <>
            {data.heirs.length ? (
              <ul className="heirs">
                {data.heirs.map((h) => (
                  <li key={h.recipient_user_id} className="heirs__item">
                    <span className="email">{h.name}</span>: {h.parts.map((p) => T.partLabel[p]).join(', ')}{' '}
                    <Button
                      variant="secondary"
                      disabled={save.isPending}
                      onClick={() => void saveList(data.heirs.filter((x) => x.recipient_user_id !== h.recipient_user_id))}
                    >
                      {T.removeButton(h.name)}
                    </Button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{T.noHeirs}</p>
            )}
            <AddHeirForm pending={save.isPending} onAdd={(heir) => saveList([...data.heirs, heir])} />
          </>
        )}
      </QueryState>
    </Card>
  );
}

function AddHeirForm({ pending, onAdd }: { pending: boolean; onAdd: (heir: Heir) => Promise<boolean> }) {
  const contacts = useContactOptions();
  const [recipient, setRecipient] = useState('');
  const [parts, setParts] = useState<TLegacyPart[]>([]);
  const [errors, setErrors] = useState<{ recipient?: string; parts?: string }>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const picked = contacts?.find((c) => c.user_id === recipient.trim().toLowerCase());

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = { recipient: recipient.trim() ? undefined : T.needRecipient, parts: parts.length ? undefined : T.needParts };
    setErrors(next);
    if (next.recipient || next.parts) return;
    const ok = await onAdd({ recipient_user_id: recipient.trim().toLowerCase(), name: picked?.name ?? recipient.trim(), parts });
    if (ok) {
      setRecipient('');
      setParts([]);
    }
  }

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate aria-label="Add a person who receives a copy">
      <ContactPicker contacts={contacts} selected={picked} onPick={(c) => setRecipient(c.user_id)} name="heir_contact" />
      <TextField
        label={T.recipientLabel}
        name="heir_recipient_user_id"
        autoComplete="off"
        value={recipient}
        onChange={(e) => setRecipient(e.target.value)}
        error={errors.recipient ?? null}
      />
      <fieldset className="fieldset">
        <legend className="fieldset__legend">{T.partsLegend}</legend>
        {ZLegacyPart.options.map((part) => (
          <CheckboxField
            key={part}
            label={T.partLabel[part]}
            hint={LEGACY_PART_TEXT[part]}
            checked={parts.includes(part)}
            onChange={(e) => setParts(e.target.checked ? [...parts, part] : parts.filter((p) => p !== part))}
          />
        ))}
        {errors.parts ? <p className="field__error">{errors.parts}</p> : null}
      </fieldset>
      <Button type="submit" disabled={pending}>
        {T.addButton}
      </Button>
    </form>
  );
}
