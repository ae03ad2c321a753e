import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Field, TextField } from '../../components/field';
import { SelectField, toOptions } from '../../components/select';
import { capsuleBody, THEMES } from './types';

type Body = ReturnType<typeof capsuleBody>;

interface CapsuleFormProps {
  /** Resolves true once the capsule is saved (errors are already said). */
  onCreate: (body: Body) => Promise<boolean>;
  pending: boolean;
}

/** A new capsule: title, theme, the letter, anonymity and when it opens. */
export function CapsuleForm({ onCreate, pending }: CapsuleFormProps) {
  const [title, setTitle] = useState('');
  const [theme, setTheme] = useState<string>('Hope');
  const [text, setText] = useState('');
  const [isAnonymous, setAnonymous] = useState(true);
  const [releaseAt, setReleaseAt] = useState('');
  const [errors, setErrors] = useState<{ title?: string; text?: string }>({});

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const next = { title: title.trim() ? undefined : 'Give it a title.', text: text.trim() ? undefined : 'Write the letter.' };
    setErrors(next);
    if (next.title || next.text) return;
    if (await onCreate(capsuleBody({ title, theme, text, isAnonymous, releaseAt }))) {
      setTitle('');
      setText('');
      setReleaseAt('');
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Write a capsule">
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
          {pending ? 'Saving…' : 'Save capsule'}
        </Button>
      </div>
    </form>
  );
}
