import { useRef, type FormEvent, useState } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { safeHttpsUrl } from './media-link';

export interface MemorialBody {
  name: string;
  epitaph: string;
  tags: string[];
  cause: string | null;
  avatar_url: string | null;
}

interface MemorialFormProps {
  onCreate: (body: MemorialBody) => Promise<boolean>;
  pending: boolean;
  /** What the fields start with (a wish being edited); empty by default. */
  initial?: MemorialBody | null;
  /** The form's name and its button: a new memorial by default. */
  label?: string;
  submitLabel?: string;
  /** Empty the fields once saved (a new memorial), or keep them (a wish). */
  clearOnSave?: boolean;
}

const fieldsOf = (b: MemorialBody | null | undefined) =>
  b
    ? { name: b.name, epitaph: b.epitaph, tags: b.tags.join(', '), cause: b.cause ?? '', avatar: b.avatar_url ?? '' }
    : { name: '', epitaph: '', tags: '', cause: '', avatar: '' };

/** A memorial page's fields: a name, an epitaph, tags, the cause and a photo, all but the name optional. */
export function MemorialForm({ onCreate, pending, initial, label = 'Make a memorial', submitLabel = 'Make memorial', clearOnSave = true }: MemorialFormProps) {
  const [f, setF] = useState(() => fieldsOf(initial));
  const [errors, setErrors] = useState<{ name?: string; avatar?: string }>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const set = (key: keyof typeof f) => (e: { target: { value: string } }) => setF({ ...f, [key]: e.target.value });

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const next = {
      name: f.name.trim() ? undefined : 'Enter their name.',
      avatar: f.avatar.trim() && !safeHttpsUrl(f.avatar.trim()) ? 'Use an address that starts with https://' : undefined,
    };
    setErrors(next);
    if (next.name || next.avatar) return;
    const body = {
      name: f.name.trim(),
      epitaph: f.epitaph.trim(),
      tags: f.tags
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
      cause: f.cause.trim() || null,
      avatar_url: f.avatar.trim() || null,
    };
    if ((await onCreate(body)) && clearOnSave) setF(fieldsOf(null));
  }

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={label}>
      <TextField label="Name" name="name" required maxLength={120} value={f.name} onChange={set('name')} error={errors.name} />
      <TextField label="Epitaph" name="epitaph" maxLength={500} value={f.epitaph} onChange={set('epitaph')} />
      <TextField label="Tags" name="tags" hint="Separated by commas, for example: veterans, teachers" value={f.tags} onChange={set('tags')} />
      <TextField label="Cause" name="cause" maxLength={120} hint="Optional." value={f.cause} onChange={set('cause')} />
      <TextField
        label="Photo"
        name="avatar_url"
        type="url"
        hint="Optional. An https:// address of an image."
        value={f.avatar}
        onChange={set('avatar')}
        error={errors.avatar}
      />
      <div className="button-row">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
