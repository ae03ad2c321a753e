import { useRef, type FormEvent, useState } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { Field, TextField } from '../../components/field';
import { safeHttpsUrl } from './media-link';

interface PostFormProps {
  /** Resolves true once posted (errors are already said). */
  onPost: (text: string, mediaUrl: string) => Promise<boolean>;
  pending: boolean;
}

/** A post on a memorial: words (required) and an optional https link or image. */
export function PostForm({ onPost, pending }: PostFormProps) {
  const [text, setText] = useState('');
  const [mediaUrl, setMediaUrl] = useState('');
  const [errors, setErrors] = useState<{ text?: string; media?: string }>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const media = mediaUrl.trim();
    const next = {
      text: text.trim() ? undefined : 'Write something before posting.',
      media: media && !safeHttpsUrl(media) ? 'Use an address that starts with https://' : undefined,
    };
    setErrors(next);
    if (next.text || next.media) return;
    if (await onPost(text.trim(), media)) {
      setText('');
      setMediaUrl('');
    }
  }

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate aria-label="Post a memory">
      <Field label="Your words" required error={errors.text}>
        {(control) => (
          <textarea className="input textarea" rows={4} name="text" maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} {...control} />
        )}
      </Field>
      <TextField
        label="Photo or link"
        name="media_url"
        type="url"
        hint="Optional. An https:// address; images show on the page, anything else as a link."
        value={mediaUrl}
        onChange={(e) => setMediaUrl(e.target.value)}
        error={errors.media}
      />
      <div className="button-row">
        <Button type="submit" disabled={pending}>
          {pending ? 'Posting…' : 'Post'}
        </Button>
      </div>
    </form>
  );
}
