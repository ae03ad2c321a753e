import { Link } from '@tanstack/react-router';
import { trpc } from '../../lib/trpc';

export const GUARDIAN_CONSENT_WITHDRAWN =
  'You withdrew the guardian consent: your guardians are not asked about you, cannot report your death, and nobody new can be invited.';

/**
 * Said at the top of the Guardian page while the guardian consent is withdrawn (docs/decisions/data-rights.md):
 * a page of guardians that silently do nothing would mislead. Nothing is said while the consents load or
 * if they cannot be read — the Data Consents page shows that error.
 */
export function GuardianConsentWithdrawn() {
  const consents = trpc.legal.consents.useQuery();
  const guardian = consents.data?.items.find((c) => c.id === 'guardian');
  if (guardian?.consent !== false) return null;
  return (
    <div role="status" className="warning">
      <p className="alert__line">
        {GUARDIAN_CONSENT_WITHDRAWN} <Link to="/app/consent">Allow it again in Data Consents</Link>.
      </p>
    </div>
  );
}
