import { CONSENT_STOPS, type TConsent, type TConsentKind } from '@afterword/worker/contracts/legal';
import { CheckboxField } from '../../components/checkbox';
import { formatDateTime } from '../../lib/format-time';
import { KIND_LABEL, NOT_YET_BUILT, T } from './texts';

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
  return (
    <ul className="stack consent-list">
      {consents.map((c) => (
        <li key={c.id} className="consent-item">
          <CheckboxField
            role="switch"
            label={KIND_LABEL[c.id]}
            checked={c.consent}
            aria-checked={c.consent}
            disabled={pendingKind === c.id}
            onChange={(e) => void onChange(c.id, e.currentTarget.checked)}
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
  );
}
