import { createFileRoute, Link } from '@tanstack/react-router';
import { Card } from '../../components/card';
import { QueryState } from '../../components/query-state';
import { PageHeader } from '../../features/app-pages/page-header';
import { KeysSection } from '../../features/developer/keys-section';
import { ATTEMPTS_SHOWN } from '../../features/developer/attempts';
import { useKeyActions, useWebhookActions } from '../../features/developer/queries';
import { QuotaNote } from '../../features/developer/quota-note';
import { SamplePayload } from '../../features/developer/sample-payload';
import { WebhookAttempts } from '../../features/developer/webhook-attempts';
import { WebhooksSection } from '../../features/developer/webhooks-section';
import { API_DOCS_PATH, OPENAPI_PATH } from '../../lib/links';
import { awaitReads } from '../../lib/route-data';
import { trpc } from '../../lib/trpc';

export const Route = createFileRoute('/app/developer')({
  loader: ({ context: { trpc } }) => {
    void trpc.webhooks.sample.prefetch(undefined, { staleTime: Infinity });
    const webhooks = trpc.webhooks.list.ensureData();
    // Each endpoint shows its attempts log: start those as soon as the list is known, without waiting.
    void webhooks.then(
      (list) => list.forEach((w) => void trpc.webhooks.attempts.prefetch({ id: w.id, limit: ATTEMPTS_SHOWN })),
      () => undefined,
    );
    return awaitReads(trpc.auth.me.ensureData(), trpc.developer.keys.list.ensureData(), webhooks);
  },
  component: DeveloperPage,
});

function DeveloperPage() {
  const me = trpc.auth.me.useQuery();
  const keys = trpc.developer.keys.list.useQuery();
  const webhooks = trpc.webhooks.list.useQuery();
  const sample = trpc.webhooks.sample.useQuery(undefined, { staleTime: Infinity });
  const keyActions = useKeyActions();
  const hookActions = useWebhookActions();

  return (
    <>
      <PageHeader title="Developer">
        <p>
          API keys and webhooks for connecting Afterword to your own tools. Examples are on the <Link to="/app/help">Help</Link> page.
        </p>
      </PageHeader>
      <div className="stack">
        <Card title="API reference">
          <p>
            Every call the API answers, with its scope, request and responses: <a href={API_DOCS_PATH}>open the interactive API reference</a>, or download the{' '}
            <a href={OPENAPI_PATH}>OpenAPI document (JSON)</a>. Send a key as <code>Authorization: Bearer &lt;key&gt;</code>.
          </p>
          <QuotaNote plan={me.data?.plan} />
        </Card>
        <Card title="API keys">
          <KeysSection
            keys={keys.data}
            loading={keys.isPending}
            loadFailed={keys.isError ? keys : null}
            onCreate={keyActions.create}
            createPending={keyActions.createPending}
            onRevoke={keyActions.revoke}
            revokePending={keyActions.revokePending}
          />
        </Card>
        <Card title="Webhooks">
          <WebhooksSection
            webhooks={webhooks.data}
            loading={webhooks.isPending}
            loadFailed={webhooks.isError ? webhooks : null}
            onCreate={hookActions.create}
            createPending={hookActions.createPending}
            onDelete={hookActions.remove}
            deletePending={hookActions.removePending}
            onTest={hookActions.test}
            testingId={hookActions.testingId}
            renderAttempts={(w) => <WebhookAttempts webhook={w} deleting={hookActions.removingId === w.id} />}
          />
        </Card>
        <Card title="Sample payload">
          <QueryState query={sample} loading="Loading the sample payload" failed="The sample payload could not be loaded." lines={6}>
            {(payload) => <SamplePayload payload={payload} />}
          </QueryState>
        </Card>
      </div>
    </>
  );
}
