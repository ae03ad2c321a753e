import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/badge';
import { Skeleton } from '../../components/skeleton';
import { HEALTH_ENDPOINT } from '../../lib/links';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/status')({
  component: StatusPage,
});

interface Health {
  state: 'up' | 'down';
  checkedAt: Date;
}

/** One probe of the API: any answer but a 2xx, or none at all, reads as down. */
async function checkHealth({ signal }: { signal: AbortSignal }): Promise<Health> {
  const up = await fetch(HEALTH_ENDPOINT, { cache: 'no-store', signal }).then(
    (res) => res.ok,
    () => false,
  );
  return { state: up ? 'up' : 'down', checkedAt: new Date() };
}

function StatusPage() {
  usePageTitle('Service status');
  // Checked afresh on every visit: an old answer is not kept (gcTime 0), so the page never shows a stale time.
  const { data: health } = useQuery({ queryKey: ['service-health'], queryFn: checkHealth, gcTime: 0, staleTime: Infinity, retry: false });
  return (
    <div className="container narrow section">
      <h1>Service status</h1>
      <section className="card" aria-labelledby="api-status" aria-live="polite">
        <h2 id="api-status">Afterword API</h2>
        {!health ? (
          <Skeleton lines={1} label="Checking the service" />
        ) : (
          <p>
            {health.state === 'up' ? <Badge tone="active">Operational</Badge> : <Badge tone="missed">Unreachable</Badge>}{' '}
            <span className="muted">Checked at {health.checkedAt.toLocaleTimeString()}.</span>
          </p>
        )}
      </section>
    </div>
  );
}
