import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { T } from './texts';
import { decodeWebhookSecret, type CreateWebhookInput } from './types';

const EVENT_OPTIONS = [{ value: 'missed_checkins', label: 'Missed check-ins (missed_checkins)' }] as const;

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

interface CreateWebhookFormProps {
  /** Resolves true when the webhook was created; the form then clears. */
  onCreate: (input: CreateWebhookInput) => Promise<boolean>;
  pending: boolean;
}

export function CreateWebhookForm({ onCreate, pending }: CreateWebhookFormProps) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [retry, setRetry] = useState(true);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [secretError, setSecretError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const u = url.trim();
    const s = secret.trim();
    const nextUrlError = !u ? T.urlRequired : isHttpUrl(u) ? null : T.urlInvalid;
    const nextSecretError = s && decodeWebhookSecret(s) === null ? T.secretFormat : null;
    setUrlError(nextUrlError);
    setSecretError(nextSecretError);
    if (nextUrlError || nextSecretError) return;
    const input: CreateWebhookInput = { url: u, event: 'missed_checkins', retry, ...(s ? { hmac_secret: s } : {}) };
    if (await onCreate(input)) {
      setUrl('');
      setSecret('');
      setRetry(true);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Create a webhook">
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        inputMode="url"
        required
        autoComplete="off"
        placeholder="https://example.com/hooks/afterword"
        hint="Afterword sends a signed POST here. In production it must be https and on the public internet."
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={urlError}
      />
      <SelectField
        label="Event"
        name="event"
        options={EVENT_OPTIONS}
        value="missed_checkins"
        onChange={() => undefined}
        hint="Sent when one of your canaries misses a check-in."
      />
      <TextField
        label="Signing secret (optional)"
        name="hmac_secret"
        autoComplete="off"
        spellCheck={false}
        placeholder="whsec_…"
        hint="Leave blank and a secret is made for you and shown once."
        value={secret}
        onChange={(e) => setSecret(e.target.value)}
        error={secretError}
      />
      <CheckboxField
        name="retry"
        label="Retry failed deliveries"
        hint="Server errors, timeouts and refused connections are retried for about a day (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). An answer of 410 turns the webhook off."
        checked={retry}
        onChange={(e) => setRetry(e.target.checked)}
      />
      <Button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create webhook'}
      </Button>
    </form>
  );
}
