import type { TPasskey } from '@afterword/worker/contracts/passkeys';
import { PASSKEY_NAME_MAX, ZRegisterPasskeyInput } from '@afterword/worker/contracts/passkeys';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { Time } from '../../components/time';

interface PasskeysSectionProps {
  passkeys: TPasskey[];
  /** Why passkeys cannot be made or used here (no WebAuthn, an IP address), or null. */
  unavailable: string | null;
  /** Resolves true once the passkey is made and kept. */
  onMake: (name: string) => Promise<boolean>;
  onRemove: (id: string) => Promise<boolean>;
}

/**
 * Notifications → Passkeys: make one per device, see when each was last used, remove one. A passkey signs in
 * and checks in with a touch or a glance (docs/decisions/passkeys.md).
 */
export function PasskeysSection({ passkeys, unavailable, onMake, onRemove }: PasskeysSectionProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [removing, setRemoving] = useState<TPasskey | null>(null);

  async function make(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The server's own rule for the name (contracts/passkeys.ts): trimmed, 1 to PASSKEY_NAME_MAX characters.
    const parsed = ZRegisterPasskeyInput.shape.name.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    setPending(true);
    try {
      if (await onMake(parsed.data)) setName('');
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="stack">
      <p>
        A passkey lets you sign in and check in with your fingerprint, face or device PIN, with no password to type. Only you can use it: a script or a link
        cannot.
      </p>
      {passkeys.length ? (
        <ul className="dev-list" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <li key={p.id} className="dev-item">
              <div className="dev-item__head">
                <h3 className="dev-item__name">{p.name}</h3>
                <Button variant="secondary" onClick={() => setRemoving(p)} aria-label={`Remove ${p.name}`}>
                  Remove
                </Button>
              </div>
              <dl className="facts">
                <div>
                  <dt>Added</dt>
                  <dd>
                    <Time value={p.created_at} />
                  </dd>
                </div>
                <div>
                  <dt>Last used</dt>
                  <dd>{p.last_used_at ? <Time value={p.last_used_at} /> : 'Not yet'}</dd>
                </div>
                <div>
                  <dt>Kept</dt>
                  <dd>{p.backed_up ? 'Synced by its provider' : 'On this device only'}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No passkeys yet.</p>
      )}
      {unavailable ? (
        <p role="note">{unavailable}</p>
      ) : (
        <form onSubmit={make} noValidate aria-label="Add a passkey">
          <TextField
            label="Name"
            hint="The device it is on, e.g. “Phone”."
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={PASSKEY_NAME_MAX}
            error={error ?? undefined}
          />
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? 'Waiting for your device…' : 'Add a passkey'}
          </Button>
        </form>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove “${removing?.name ?? ''}”?`}
        description="It will no longer sign you in or check you in. Remove it from the device as well."
        confirmLabel="Remove passkey"
        confirmVariant="danger"
        onConfirm={async () => {
          if (removing && (await onRemove(removing.id))) setRemoving(null);
        }}
      />
    </div>
  );
}
