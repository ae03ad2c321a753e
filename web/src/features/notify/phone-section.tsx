import { PHONE_CODE_LENGTH, ZStartPhoneVerification, ZVerifyPhone, type ProfileView } from '@afterword/worker/contracts/profile';
import { useState, type FormEvent } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { toFieldErrors } from '../auth/field-errors';

interface PhoneSectionProps {
  profile: Pick<ProfileView, 'phone' | 'phone_verified' | 'pending_phone'>;
  /** Each resolves true on success. */
  onStart: (phone: string) => Promise<boolean>;
  onVerify: (code: string) => Promise<boolean>;
  onRemove: () => Promise<boolean>;
  pending: boolean;
}

/** Enter an E.164 number, Send code, enter the 6 digits, Verify; a verified number can be removed. */
export function PhoneSection({ profile, onStart, onVerify, onRemove, pending }: PhoneSectionProps) {
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const verified = profile.phone_verified && profile.phone;
  const awaitingCode = Boolean(profile.pending_phone) && !changing;

  async function sendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const parsed = ZStartPhoneVerification.safeParse({ phone });
    if (!parsed.success) {
      setError(toFieldErrors(parsed.error).phone ?? 'Enter the number in international form, e.g. +14155550100.');
      return;
    }
    setError(null);
    if (await onStart(parsed.data.phone)) {
      setChanging(false);
      setCode('');
    }
  }

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const parsed = ZVerifyPhone.safeParse({ code });
    if (!parsed.success) {
      setError(toFieldErrors(parsed.error).code ?? `Enter the ${PHONE_CODE_LENGTH} digits we sent.`);
      return;
    }
    setError(null);
    if (await onVerify(parsed.data.code)) {
      setCode('');
      setPhone('');
    }
  }

  return (
    <div className="phone">
      {verified ? (
        <>
          <p className="server-status__line">
            <span className="break">{profile.phone}</span> <Badge tone="active">Verified</Badge>
          </p>
          <p className="muted">Your SMS alerts, and messages others send you by SMS or phone call, go to this number.</p>
          <div className="button-row section-gap">
            <Button variant="secondary" onClick={() => setConfirmRemove(true)} disabled={pending}>
              Remove phone number
            </Button>
          </div>
        </>
      ) : (
        <p className="muted">No verified phone number. Add one to receive SMS alerts, and messages others send you by SMS or phone call.</p>
      )}

      {awaitingCode ? (
        <form className="form-row" onSubmit={verify} noValidate aria-label="Verify phone number">
          <TextField
            label="Verification code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={PHONE_CODE_LENGTH}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            hint={`We sent ${PHONE_CODE_LENGTH} digits to ${profile.pending_phone}.`}
            error={error}
          />
          <Button type="submit" disabled={pending}>
            Verify
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              setChanging(true);
              setError(null);
            }}
          >
            Use a different number
          </Button>
        </form>
      ) : (
        <form className="form-row" onSubmit={sendCode} noValidate aria-label={verified ? 'Change phone number' : 'Add phone number'}>
          <TextField
            label={verified ? 'New phone number' : 'Phone number'}
            name="phone"
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            hint="In international form, starting with + and the country code, e.g. +14155550100."
            error={error}
          />
          <Button type="submit" variant={verified ? 'secondary' : 'primary'} disabled={pending}>
            Send code
          </Button>
        </form>
      )}

      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title="Remove this phone number?"
        description={`${profile.phone ?? 'The number'} stops receiving text messages and calls from Afterword at once.`}
        confirmLabel="Remove"
        confirmVariant="danger"
        pending={pending}
        onConfirm={() => void onRemove().then((ok) => ok && setConfirmRemove(false))}
      />
    </div>
  );
}
