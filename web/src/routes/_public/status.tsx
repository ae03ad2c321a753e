import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Badge } from '../../components/badge';
import { Skeleton } from '../../components/skeleton';
import { HEALTH_ENDPOINT } from '../../lib/links';
import { usePageTitle } from '../../lib/use-page-title';

export const Route = createFileRoute('/_public/status')({
  component: StatusPage,
});

type Health = { state: 'loading' } | { state: 'up'; checkedAt: Date } | { state: 'down'; checkedAt: Date };

function StatusPage() {
  usePageTitle('Service status');
  const [health, setHealth] = useState<Health>({ state: 'loading' });
  useEffect(() => {
    let alive = true;
    fetch(HEALTH_ENDPOINT, { cache: 'no-store' })
      .then((res) => alive && setHealth({ state: res.ok ? 'up' : 'down', checkedAt: new Date() }))
      .catch(() => alive && setHealth({ state: 'down', checkedAt: new Date() }));
    return () => { alive = false; };
  }, []);
  return (
    <div className="container narrow section">
      <h1>Service status</h1>
      <section className="card" aria-labelledby="api-status" aria-live="polite">
        <h2 id="api-status">Afterword API</h2>
        {health.state === 'loading' ? <Skeleton lines={1} label="Checking the service" /> : (
          <p>
            {health.state === 'up' ? <Badge tone="active">Operational</Badge> : <Badge tone="missed">Unreachable</Badge>}{' '}
            <span className="muted">Checked at {health.checkedAt.toLocaleTimeString()}.</span>
          </p>
        )}
      </section>
    </div>
  );
}
