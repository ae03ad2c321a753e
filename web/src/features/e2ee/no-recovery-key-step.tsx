import { useId, useState } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { T } from './texts';

/** The tick that says the person read what a reset without the recovery key loses, and the reason it is asked for. */
export function useNoRecoveryConsent() {
  const [acknowledged, setAcknowledged] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    acknowledged,
    error,
    acknowledge: (checked: boolean) => setAcknowledged(checked),
    /** Whether the reset may go on: false, with the reason under the box, when the tick is `needed` and missing. */
    given: (needed: boolean) => {
      setError(null);
      if (needed && !acknowledged) {
        setError(T.noRecoveryMustConfirm);
        return false;
      }
      return true;
    },
  };
}

export type NoRecoveryConsent = ReturnType<typeof useNoRecoveryConsent>;

/** A reset without the recovery key: a plain warning that what was sealed for the old keys is lost, and a tick. */
export function NoRecoveryKeyStep({ consent, onHaveKey }: { consent: NoRecoveryConsent; onHaveKey: () => void }) {
  const warningId = useId();
  return (
    <section className="reset-flow__step" aria-label={T.noRecoveryWarningTitle}>
      <div id={warningId} className="warning" role="note">
        <p className="reset-flow__warning-title">{T.noRecoveryWarningTitle}</p>
        <p>{T.noRecoveryWarning}</p>
      </div>
      <CheckboxField
        label={T.noRecoveryConfirm}
        checked={consent.acknowledged}
        onChange={(e) => consent.acknowledge(e.target.checked)}
        describedBy={warningId}
        error={consent.error}
      />
      <p className="auth-form__switch">
        <Button variant="ghost" onClick={onHaveKey}>
          {T.haveRecoveryKey}
        </Button>
      </p>
    </section>
  );
}
