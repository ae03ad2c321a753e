import { Card } from '../../components/card';
import { Skeleton } from '../../components/skeleton';
import { trpc } from '../../lib/trpc';
import { LadderStatus } from './ladder-status';
import { LadderTimeline } from './ladder-timeline';
import { T } from './texts';
import type { Guardian } from './types';
import { ErrorState } from '../../components/error-state';

/** The owner's ladder on the Guardian page: where it stands, then its timeline. */
export function LadderCard({ guardians = [] }: { guardians?: readonly Guardian[] }) {
  const ladder = trpc.guardian.ladder.useQuery();
  // Steps name their guardian by id; the owner's list turns that back into a person.
  const names = new Map(guardians.map((g) => [g.id, g.name ?? g.email]));
  return (
    <Card title="Where things stand">
      {ladder.isPending ? (
        <Skeleton lines={4} label="Loading the guardian ladder" />
      ) : ladder.isError ? (
        <ErrorState title={T.loadFailed} read={ladder} />
      ) : (
        <>
          <LadderStatus ladder={ladder.data} />
          <h3>Timeline</h3>
          <LadderTimeline transitions={ladder.data.transitions} guardianNames={names} />
        </>
      )}
    </Card>
  );
}
