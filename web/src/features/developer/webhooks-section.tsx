import type { ReactNode } from 'react';
import type { FailedRead } from '../../components/error-state';
import { CreatedOnceSection } from './created-once-section';
import { CreateWebhookForm } from './create-webhook-form';
import { ShownOncePanel } from './shown-once-panel';
import { T } from './texts';
import { WebhookList } from './webhook-list';
import type { CreatedWebhook, CreateWebhookInput, WebhookEndpoint } from './types';

interface WebhooksSectionProps {
  webhooks: readonly WebhookEndpoint[] | undefined;
  loading: boolean;
  /** The list's read, when it failed (shown as the error state with Retry); null otherwise. */
  loadFailed: FailedRead | null;
  /** Resolves the webhook with its full secret, or null when it failed (already said). */
  onCreate: (input: CreateWebhookInput) => Promise<CreatedWebhook | null>;
  createPending: boolean;
  onDelete: (id: string) => Promise<boolean>;
  deletePending: boolean;
  onTest: (id: string) => Promise<boolean>;
  testingId: string | null;
  renderAttempts: (webhook: WebhookEndpoint) => ReactNode;
}

/** Create form, the signing secret shown once, and the endpoints, each with its attempts log. */
export function WebhooksSection(props: WebhooksSectionProps) {
  const { webhooks, loading, loadFailed, onCreate, createPending } = props;
  return (
    <CreatedOnceSection<CreateWebhookInput, CreatedWebhook>
      onCreate={onCreate}
      form={(create) => <CreateWebhookForm onCreate={create} pending={createPending} />}
      shownOnce={(created, done) => (
        <ShownOncePanel
          key={created.id}
          title={T.secretOnceTitle}
          valueLabel={`Signing secret for ${created.url}`}
          value={created.hmac_secret}
          warning={T.secretOnceWarning}
          copyLabel={T.secretCopy}
          copiedMessage={T.secretCopied}
          onDone={done}
        >
          <p>
            Events for <code>{created.url}</code> are signed with this secret (Standard Webhooks: headers <code>webhook-id</code>,{' '}
            <code>webhook-timestamp</code> and <code>webhook-signature</code>).
          </p>
        </ShownOncePanel>
      )}
      listTitle="Your webhooks"
      loading={loading}
      loadingLabel="Loading your webhooks"
      loadFailed={loadFailed}
      failedTitle="Your webhooks could not be loaded."
      list={
        webhooks ? (
          <WebhookList
            webhooks={webhooks}
            onDelete={props.onDelete}
            deletePending={props.deletePending}
            onTest={props.onTest}
            testingId={props.testingId}
            renderAttempts={props.renderAttempts}
          />
        ) : null
      }
    />
  );
}
