import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { trpc } from '../../lib/trpc';
import { ConsentList } from './consent-list';
import { useConsentActions } from './queries';
import { T } from './texts';
import { ErrorState } from '../../components/error-state';

/** The five consent switches, read and saved here. */
export function ConsentCard() {
  const consents = trpc.legal.consents.useQuery();
  const { set, pendingKind } = useConsentActions();
  return (
    <Card title={T.cardTitle}>
      {consents.isPending ? (
        <Skeleton lines={5} label={T.loading} />
      ) : consents.isError ? (
        <ErrorState title={T.loadFailed} read={consents} />
      ) : (
        <ConsentList consents={consents.data.items} onChange={set} pendingKind={pendingKind} />
      )}
    </Card>
  );
}
