import type { PasswordResetInspection, TPasswordResetConfirm } from '@afterword/worker/contracts/auth';
import { ZNewPassword } from '@afterword/worker/contracts/auth';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Field } from '../../components/field';
import { Skeleton } from '../../components/skeleton';
import { createKeyBundle, parseRecoveryKey, rewrapPrivateKey, unwrapPrivateKey } from '../../crypto';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import { NewPasswordFields } from './new-password-fields';
import { T } from './texts';

export interface ResetApi {
  inspect(token: string): Promise<PasswordResetInspection>;
  confirm(input: TPasswordResetConfirm): Promise<unknown>;
}

export interface ResetResult {
  email: string;
  password: string;
  /** Set when the account got a whole new bundle: its recovery key (and its wrap's `ct`), to show once. */
  newRecoveryKey: { recoveryKey: string; recoveryCt: string } | null;
}

/** The key from pasted text or an uploaded afterword-recovery-key.txt (the grouped line), else the text as is. */
export function extractRecoveryKey(text: string): string {
  const grouped = /(?:^|[^A-Z2-7-])((?:[A-Z2-7]{4}-){12}[A-Z2-7]{4})(?![A-Z2-7-])/i.exec(text);
  return grouped ? grouped[1]!.toUpperCase() : text.trim();
}

type Inspect = { kind: 'loading' } | { kind: 'invalid'; message: string } | { kind: 'ready'; info: PasswordResetInspection };

/**
 * /reset-password?token=…: with E2EE keys, the recovery key re-opens the same private key, re-wrapped
 * under the new password (everything stays readable); without it, after a plain warning and a tick,
 * a whole new bundle replaces the old one (what was sealed for it is lost). Without keys: just a password.
 */
export function ResetPasswordFlow({ token, api, onReset }: { token: string; api: ResetApi; onReset: (result: ResetResult) => Promise<void> | void }) {
  const [inspect, setInspect] = useState<Inspect>({ kind: 'loading' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token) {
      setInspect({ kind: 'invalid', message: T.resetInvalid });
      return;
    }
    api.inspect(token).then(
      (info) => setInspect({ kind: 'ready', info }),
      (error: unknown) => setInspect({ kind: 'invalid', message: readApiError(error).detail ?? T.resetInvalid }),
    );
  }, [api, token]);

  if (inspect.kind === 'loading') return <Skeleton lines={3} label={T.resetChecking} />;
  if (inspect.kind === 'invalid') {
    return (
      <div className="auth-form">
        <p role="alert" className="alert">
          {inspect.message}
        </p>
        <p className="auth-form__switch">
          <Link to="/forgot-password">{T.resetAskAgain}</Link>
        </p>
      </div>
    );
  }
  return <ResetForm token={token} info={inspect.info} api={api} onReset={onReset} />;
}

type Mode = 'recovery' | 'lost';

function ResetForm({
  token,
  info,
  api,
  onReset,
}: {
  token: string;
  info: PasswordResetInspection;
  api: ResetApi;
  onReset: (result: ResetResult) => Promise<void> | void;
}) {
  const hasKeys = info.has_keys && info.recovery_wrap !== null;
  const [mode, setMode] = useState<Mode>('recovery');
  const [recoveryText, setRecoveryText] = useState('');
  const [recoveryError, setRecoveryError] = useState<string | null>(null);
  const [accepted, setAccepted] = useState<string | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const [ackError, setAckError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const checking = useSingleFlight();
  const saving = useSingleFlight();
  const fileId = useId();
  const warningId = useId();

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setRecoveryText(extractRecoveryKey(await file.text()));
    setAccepted(null);
    setRecoveryError(null);
  }

  async function checkRecoveryKey() {
    if (checking.isBusy()) return;
    await checking.run(async () => {
      setRecoveryError(null);
      const typed = extractRecoveryKey(recoveryText);
      try {
        parseRecoveryKey(typed);
      } catch (error) {
        setRecoveryError(T.recoveryKeyMalformed((error as Error).message));
        return;
      }
      try {
        await unwrapPrivateKey(info.recovery_wrap, { recoveryKey: typed });
        setAccepted(typed);
      } catch (error) {
        setRecoveryError((error as { code?: string }).code === 'wrong-key' ? T.recoveryKeyWrong : T.resetFailed);
      }
    });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving.isBusy()) return;
    const found: { password?: string; confirm?: string } = {};
    const parsed = ZNewPassword.safeParse(password);
    if (!parsed.success) found.password = parsed.error.issues[0]?.message ?? 'Choose a new password';
    if (password !== confirm) found.confirm = T.passwordMismatch;
    setErrors(found);
    setFormError(null);
    setAckError(null);
    if (hasKeys && mode === 'lost' && !acknowledged) {
      setAckError(T.noRecoveryMustConfirm);
      return;
    }
    if (Object.keys(found).length) return;
    await saving.run(async () => {
      try {
        let input: TPasswordResetConfirm = { token, new_password: password };
        let newRecoveryKey: ResetResult['newRecoveryKey'] = null;
        if (hasKeys && mode === 'recovery') {
          if (!accepted) {
            setRecoveryError(T.recoveryKeyWrong);
            return;
          }
          input = { ...input, key_bundle: { password_wrap: await rewrapPrivateKey(info.recovery_wrap, { recoveryKey: accepted }, { password }) } };
        } else if (hasKeys) {
          const fresh = await createKeyBundle(password);
          input = { ...input, key_bundle: fresh.bundle };
          newRecoveryKey = { recoveryKey: fresh.recoveryKey, recoveryCt: fresh.bundle.recovery_wrap.ct };
        }
        await api.confirm(input);
        setDone(true);
        await onReset({ email: info.email, password, newRecoveryKey });
      } catch (error) {
        // A 422's detail is its issues' messages joined: shown above the form unless one is the password's.
        const { fieldIssues, detail } = readApiError(error);
        const pw = fieldIssues?.find((i) => i.path[0] === 'new_password');
        if (pw) setErrors({ password: pw.msg });
        else setFormError(detail ?? T.resetFailed);
      }
    });
  }

  if (done) {
    return (
      <div className="auth-form">
        <p role="status" className="note">
          {T.resetDone}
        </p>
        <p className="auth-form__switch">
          <Link to="/login">{T.resetSignIn}</Link>
        </p>
      </div>
    );
  }

  const passwordReady = !hasKeys || (mode === 'recovery' ? accepted !== null : true);

  return (
    <div className="auth-form reset-flow">
      <p className="muted">{T.resetFor(info.email)}</p>
      {hasKeys && mode === 'recovery' ? (
        <section className="reset-flow__step" aria-label="Your encryption keys">
          <p>{T.resetKeysIntro}</p>
          <Field label={T.recoveryKeyLabel} hint={T.recoveryKeyHint} error={recoveryError}>
            {(control) => (
              <textarea
                className="input textarea"
                name="recovery_key"
                rows={3}
                spellCheck={false}
                autoComplete="off"
                value={recoveryText}
                onChange={(e) => {
                  setRecoveryText(e.target.value);
                  setAccepted(null);
                }}
                {...control}
              />
            )}
          </Field>
          <div className="field">
            <label className="field__label" htmlFor={fileId}>
              {T.recoveryKeyFile}
            </label>
            <input id={fileId} type="file" accept=".txt,text/plain" className="input" onChange={(e) => void readFile(e)} />
          </div>
          {accepted ? (
            <p role="status" className="note">
              {T.recoveryKeyAccepted}
            </p>
          ) : (
            <Button variant="secondary" onClick={() => void checkRecoveryKey()} disabled={checking.pending}>
              {checking.pending ? T.recoveryKeyChecking : T.recoveryKeyCheck}
            </Button>
          )}
          <p className="auth-form__switch">
            <Button variant="ghost" onClick={() => setMode('lost')}>
              {T.noRecoveryKey}
            </Button>
          </p>
        </section>
      ) : null}
      {hasKeys && mode === 'lost' ? (
        <section className="reset-flow__step" aria-label={T.noRecoveryWarningTitle}>
          <div id={warningId} className="warning" role="note">
            <p className="reset-flow__warning-title">{T.noRecoveryWarningTitle}</p>
            <p>{T.noRecoveryWarning}</p>
          </div>
          <CheckboxField
            label={T.noRecoveryConfirm}
            checked={acknowledged}
            onChange={(e) => setAcknowledged(e.target.checked)}
            describedBy={warningId}
            error={ackError}
          />
          <p className="auth-form__switch">
            <Button variant="ghost" onClick={() => setMode('recovery')}>
              {T.haveRecoveryKey}
            </Button>
          </p>
        </section>
      ) : null}
      {passwordReady ? (
        <form ref={formRef} onSubmit={submit} noValidate aria-label={T.resetTitle}>
          {formError ? (
            <p role="alert" className="alert">
              {formError}
            </p>
          ) : null}
          <NewPasswordFields
            password={password}
            confirm={confirm}
            onPassword={setPassword}
            onConfirm={setConfirm}
            errors={{ password: errors.password, confirm: errors.confirm }}
          />
          <Button type="submit" className="button--block" disabled={saving.pending}>
            {saving.pending ? T.resetSubmitting : T.resetSubmit}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
