import { useRef, type FormEvent, useState } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Field, TextField } from '../../components/field';
import { SelectField, toOptions } from '../../components/select';
import { capsuleBody, letterOf, type MyCapsule, THEMES, toLocalInput } from './types';

export type CapsuleBody = ReturnType<typeof capsuleBody>;

interface CapsuleFormProps {
  /** Resolves true once the capsule is saved (errors are already said). */
  onCreate: (body: CapsuleBody) => Promise<boolean>;
  pending: boolean;
  /** A sealed capsule being edited: the fields start with it, and stay after saving. */
  editing?: MyCapsule;
  /** The memorial the capsule will be shown on once it opens (from the memorial page's link), and its name. */
  memorial?: { id: string; name: string } | null;
  onClearMemorial?: () => void;
  onCancel?: () => void;
}

/** A capsule: title, theme, the letter, anonymity, when it opens and the memorial it is shown on. New, or sealed and edited. */
export function CapsuleForm({ onCreate, pending, editing, memorial, onClearMemorial, onCancel }: CapsuleFormProps) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [theme, setTheme] = useState<string>(editing?.theme ?? 'Hope');
  const [text, setText] = useState(editing ? letterOf(editing) : '');
  const [isAnonymous, setAnonymous] = useState(editing?.is_anonymous ?? true);
  const [releaseAt, setReleaseAt] = useState(editing ? toLocalInput(editing.released_at) : '');
  const [errors, setErrors] = useState<{ title?: string; text?: string }>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const memorialId = memorial?.id ?? editing?.memorial_id ?? null;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const next = { title: title.trim() ? undefined : 'Give it a title.', text: text.trim() ? undefined : 'Write the letter.' };
    setErrors(next);
    if (next.title || next.text) return;
    if ((await onCreate(capsuleBody({ title, theme, text, isAnonymous, releaseAt, memorialId }))) && !editing) {
      setTitle('');
      setText('');
      setReleaseAt('');
    }
  }

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label={editing ? `Edit “${editing.title}”` : 'Write a capsule'}>
      {memorial ? (
        <p className="muted">
          Shown on the memorial of <strong>{memorial.name}</strong> once it opens.{' '}
          {onClearMemorial ? (
            <Button variant="ghost" onClick={onClearMemorial}>
              Not on a memorial
            </Button>
          ) : null}
        </p>
      ) : null}
      <TextField label="Title" name="title" required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} error={errors.title} />
      <SelectField label="Theme" name="theme" options={toOptions(THEMES)} value={theme} onChange={(e) => setTheme(e.target.value)} />
      <Field label="Letter" required error={errors.text} hint="Anyone can read it once it opens.">
        {(control) => (
          <textarea className="input textarea" rows={6} name="text" maxLength={20000} value={text} onChange={(e) => setText(e.target.value)} {...control} />
        )}
      </Field>
      <TextField
        label="Opens on"
        name="release_at"
        type="datetime-local"
        hint="Leave empty to open it now. Until then only you can read it, and you can still change it."
        value={releaseAt}
        onChange={(e) => setReleaseAt(e.target.value)}
      />
      <CheckboxField
        label="Anonymous"
        hint="Your name and email are never shown with it."
        checked={isAnonymous}
        onChange={(e) => setAnonymous(e.target.checked)}
      />
      <div className="button-row">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : editing ? 'Save changes' : 'Save capsule'}
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
