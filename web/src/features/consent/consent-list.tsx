import { CONSENT_ERASES, CONSENT_STOPS, type TConsent, type TConsentKind } from '@afterword/worker/contracts/legal';
import { useState } from 'react';
import { CheckboxField } from '../../components/checkbox';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDateTime } from '../../lib/format-time';
import { ERASE_DIALOG, KIND_LABEL, NOT_YET_BUILT, T } from './texts';

interface ConsentListProps {
  consents: readonly TConsent[];
  onChange: (id: TConsentKind, consent: boolean) => Promise<boolean>;
  /** The kind being saved: its switch waits for the answer. */
  pendingKind: string | null;
}

/**
 * The five consents as switches (a native checkbox with role="switch": Space toggles it, and a screen
 * reader says "on"/"off"), each with one plain sentence about what stops when it is off and when it
 * last changed. The switch shows the server's state: a refused change leaves it as it was.
 */
export function ConsentList({ consents, onChange, pendingKind }: ConsentListProps) {
  // A withdrawal that erases something waits here for the person's yes.
  const [asking, setAsking] = useState<TConsentKind | null>(null);
  const change = (id: TConsentKind, consent: boolean) => {
    if (!consent && CONSENT_ERASES[id]) setAsking(id);
    else void onChange(id, consent);
  };
  return (
    <>
      <ul className="stack consent-list">
        {consents.map((c) => (
          <li key={c.id} className="consent-item">
            <CheckboxField
              role="switch"
              label={KIND_LABEL[c.id]}
              checked={c.consent}
              aria-checked={c.consent}
              disabled={pendingKind === c.id}
              onChange={(e) => change(c.id, e.currentTarget.checked)}
              hint={
                <>
                  When off: {CONSENT_STOPS[c.id]}
                  {NOT_YET_BUILT.includes(c.id) ? ` ${T.notYetBuilt}` : ''}
                  <br />
                  <span className="muted">
                    {c.updated_at ? (
                      <>
                        Last changed <time dateTime={c.updated_at}>{formatDateTime(c.updated_at)}</time>
                      </>
                    ) : (
                      T.neverChanged
                    )}
                  </span>
                </>
              }
            />
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={asking ? ERASE_DIALOG.title(KIND_LABEL[asking]) : ''}
        description={asking ? ERASE_DIALOG.body(CONSENT_ERASES[asking] ?? '', KIND_LABEL[asking]) : undefined}
        confirmLabel={ERASE_DIALOG.confirm}
        confirmVariant="danger"
        pending={asking !== null && pendingKind === asking}
        onConfirm={() => {
          const id = asking;
          setAsking(null);
          if (id) void onChange(id, false);
        }}
      />
    </>
  );
}
