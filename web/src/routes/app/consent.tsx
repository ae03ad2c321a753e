import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../features/app-pages/page-header';
import { ConsentCard } from '../../features/consent/consent-card';
import { DeleteAccountCard } from '../../features/data-rights/delete-account-card';
import { ExportCard } from '../../features/data-rights/export-card';
import { T } from '../../features/consent/texts';
import { awaitReads } from '../../lib/route-data';

export const Route = createFileRoute('/app/consent')({
  loader: ({ context: { trpc } }) => {
    // Below the consents: the scheduled deletions may arrive after the page.
    void trpc.legal.deletions.prefetch();
    return awaitReads(trpc.legal.consents.ensureData());
  },
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
        <ExportCard />
        <DeleteAccountCard />
      </div>
    </>
  );
}
