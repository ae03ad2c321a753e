import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { scopeHint, T } from './texts';
import { API_KEY_NAME_MAX, API_SCOPES, type ApiScope, type CreateKeyInput } from './types';

/** Said before the button: the one irreversible part of creating a key (docs/decisions/contacts.md). */
export const KEY_SHOWN_ONCE_NOTE = 'The key is shown once, right after you create it: we keep only its hash, so have somewhere safe to put it.';

interface CreateKeyFormProps {
  /** Resolves true when the key was created; the form then clears. */
  onCreate: (input: CreateKeyInput) => Promise<boolean>;
  pending: boolean;
}

/** Name, scopes (each with what it allows) and sandbox. Scopes are sent in the order they are listed. */
export function CreateKeyForm({ onCreate, pending }: CreateKeyFormProps) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<ApiScope>>(new Set());
  const [sandbox, setSandbox] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [scopeError, setScopeError] = useState<string | null>(null);
  const scopeErrorId = useId();

  function toggle(scope: ApiScope, on: boolean) {
    const next = new Set(scopes);
    if (on) next.add(scope);
    else next.delete(scope);
    setScopes(next);
    if (next.size) setScopeError(null);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const trimmed = name.trim();
    const chosen = API_SCOPES.filter((s) => scopes.has(s));
    setNameError(trimmed ? null : T.nameRequired);
    setScopeError(chosen.length ? null : T.noScope);
    if (!trimmed || !chosen.length) return;
    if (await onCreate({ name: trimmed, scopes: chosen, sandbox })) {
      setName('');
      setScopes(new Set());
      setSandbox(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Create an API key">
      <TextField
        label="Name"
        name="client_name"
        required
        maxLength={API_KEY_NAME_MAX}
        autoComplete="off"
        placeholder="e.g. Home automation"
        hint="So you can tell your keys apart. Only you see it."
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={nameError}
      />
      <fieldset className="fieldset" aria-describedby={scopeError ? scopeErrorId : undefined}>
        <legend className="fieldset__legend">Scopes</legend>
        {API_SCOPES.map((scope) => (
          <CheckboxField
            key={scope}
            name="scopes"
            value={scope}
            label={<code>{scope}</code>}
            hint={scopeHint(scope)}
            checked={scopes.has(scope)}
            onChange={(e) => toggle(scope, e.target.checked)}
          />
        ))}
        {scopeError ? (
          <p id={scopeErrorId} className="field__error" role="alert">
            {scopeError}
          </p>
        ) : null}
        <p className="field__hint">A key can never manage keys, webhooks or your account.</p>
      </fieldset>
      <CheckboxField
        name="sandbox"
        label="Sandbox key (afw_test_…)"
        hint="Works on your own data, but never sends a real delivery. It can send your canary’s missed_checkins event to your webhooks, marked sandbox, to test your receiver (POST /api/sandbox/missed-checkins)."
        checked={sandbox}
        onChange={(e) => setSandbox(e.target.checked)}
      />
      <p className="note">{KEY_SHOWN_ONCE_NOTE}</p>
      <Button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create key'}
      </Button>
    </form>
  );
}
