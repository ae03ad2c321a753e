import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../features/app-pages/page-header';
import { ConsentCard } from '../../features/consent/consent-card';
import { T } from '../../features/consent/texts';
import { awaitReads } from '../../lib/route-data';

export const Route = createFileRoute('/app/consent')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.legal.consents.ensureData()),
  component: ConsentPage,
});

function ConsentPage() {
  return (
    <>
      <PageHeader title={T.title}>
        <p>{T.intro}</p>
      </PageHeader>
      <div className="stack">
        <ConsentCard />
      </div>
    </>
  );
}
