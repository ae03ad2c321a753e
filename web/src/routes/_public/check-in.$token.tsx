import { createFileRoute } from '@tanstack/react-router';
import { CheckInLinkView, type CheckInLinkLookup } from '../../features/canary/check-in-link';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/check-in/$token')({
  component: CheckInLinkPage,
});

function CheckInLinkPage() {
  usePageTitle('Check in');
  const { token } = Route.useParams();
  const link = trpc.canary.checkInLink.useQuery({ token }, { retry: false });
  const redeem = trpc.canary.redeemCheckInLink.useMutation();
  const status = link.isError ? readApiError(link.error).status : null;
  const lookup: CheckInLinkLookup = link.isPending
    ? { kind: 'loading' }
    : link.isError
      ? status === 404 || status === 422
        ? { kind: 'not-found' }
        : { kind: 'failed' }
      : { kind: 'found', link: link.data };
  return (
    <div className="container narrow section">
      <h1>Check in</h1>
      <section className="card">
        <CheckInLinkView lookup={lookup} onCheckIn={() => redeem.mutateAsync({ token })} />
      </section>
    </div>
  );
}
