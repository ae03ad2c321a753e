import { useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { toast } from '../../components/toast';
import { trpc } from '../../lib/trpc';
import { useSingleFlight } from '../../lib/use-single-flight';
import { deviceUnlock, STAY_UNLOCKED_CHOICES } from './device-unlock';
import { keysApiFromClient, NoKeysError, unlockWithPassword, type KeysApi } from './keys-api';
import { useE2eeStore } from './key-store';
import { T } from './texts';

interface UnlockPromptProps {
  /**
   * Resolves once unlocked; rejects with WrongKeyError (wrong password) or NoKeysError. `stayForMs` is
   * how long to stay unlocked on this device, or null for this tab only (the default).
   */
  unlock: (password: string, stayForMs: number | null) => Promise<void>;
}

/** After a reload the private key is gone: ask for the password and open the wrap locally. */
export function UnlockPrompt({ unlock }: UnlockPromptProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [stay, setStay] = useState(false);
  const [stayFor, setStayFor] = useState<number>(STAY_UNLOCKED_CHOICES[0].ms);
  const { pending, run, isBusy } = useSingleFlight();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    if (!password) {
      setError('Password is required');
      return;
    }
    await run(async () => {
      setError(null);
      try {
        await unlock(password, stay ? stayFor : null);
        setPassword('');
        toast.success(T.unlocked);
      } catch (err) {
        if (err instanceof NoKeysError) setError(T.unlockNoKeys);
        else if ((err as { code?: string }).code === 'wrong-key') setError(T.unlockWrongPassword);
        else setError(T.unlockFailed);
      }
    });
  }

  return (
    <form className="unlock-prompt note" onSubmit={submit} noValidate aria-label={T.unlockTitle}>
      <h3 className="unlock-prompt__title">{T.unlockTitle}</h3>
      <p>{T.unlockIntro}</p>
      <TextField
        label="Password"
        name="unlock-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error}
      />
      <CheckboxField label={T.stayUnlockedLabel} hint={T.stayUnlockedHint} checked={stay} onChange={(e) => setStay(e.target.checked)} />
      {stay ? (
        <SelectField
          label={T.stayUnlockedFor}
          name="stay-unlocked-for"
          value={String(stayFor)}
          onChange={(e) => setStayFor(Number(e.target.value))}
          options={STAY_UNLOCKED_CHOICES.map((c) => ({ value: String(c.ms), label: c.label }))}
        />
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? T.unlocking : T.unlockButton}
      </Button>
    </form>
  );
}

/** The app's KeysApi, on the signed-in tRPC client. */
export function useKeysApi(): KeysApi {
  const utils = trpc.useUtils();
  return useMemo(() => keysApiFromClient(utils.client), [utils.client]);
}

/** The prompt wired to the server and this tab's key store. */
export function ConnectedUnlockPrompt() {
  const api = useKeysApi();
  const store = useE2eeStore();
  return (
    <UnlockPrompt
      unlock={(password, stayForMs) =>
        unlockWithPassword(api, store, password, stayForMs === null ? undefined : { until: Date.now() + stayForMs, device: deviceUnlock })
      }
    />
  );
}
