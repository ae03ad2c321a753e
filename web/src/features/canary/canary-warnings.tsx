import { canaryLabel, type TCanary } from '@afterword/worker/contracts/canary';
import { EmptyState } from '../../components/empty-state';
import { Skeleton } from '../../components/skeleton';
import { Time } from '../../components/time';
import { trpc } from '../../lib/trpc';
import { WARNING_TITLES, warningSummary } from './warning-summary';

/** How many notices per canary the page lists. */
const SHOWN = 5;

/** "Warnings to you": for each canary, where its latest reminders and warnings went. */
export function CanaryWarnings({ canaries }: { canaries: readonly TCanary[] }) {
  if (!canaries.length) return null;
  return (
    <div className="stack">
      <p className="field__hint">
        Before anything is released, you are warned on your notification methods. Each line says where a warning reached you; nothing a missed check-in releases
        goes out until one of them has.
      </p>
      {canaries.map((c) => (
        <WarningsOf key={c.id} canary={c} titled={canaries.length > 1} />
      ))}
    </div>
  );
}

function WarningsOf({ canary, titled }: { canary: TCanary; titled: boolean }) {
  const warnings = trpc.canary.warnings.useQuery({ id: canary.id }, { refetchInterval: 30_000 });
  return (
    <section aria-label={`Warnings for ${canaryLabel(canary.name)}`}>
      {titled ? <h3 className="dev-subtitle">{canaryLabel(canary.name)}</h3> : null}
      {warnings.isPending ? (
        <Skeleton lines={2} label="Loading warnings" />
      ) : warnings.isError ? (
        <p role="alert">The warnings could not be loaded.</p>
      ) : !warnings.data.warnings.length ? (
        <EmptyState title="No warnings yet.">
          <p>When this canary enters its grace period you are reminded here and on your notification methods.</p>
        </EmptyState>
      ) : (
        <ul className="activity-list" data-testid="canary-warnings">
          {warnings.data.warnings.slice(0, SHOWN).map((w) => (
            <li key={w.id} className="activity-list__item">
              <span>
                <strong>{WARNING_TITLES[w.kind]}</strong> · <Time value={w.created_at} className="activity-list__time" />
              </span>
              <span data-testid="warning-summary">{warningSummary(w)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
