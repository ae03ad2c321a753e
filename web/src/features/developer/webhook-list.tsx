import { useState, type ReactNode } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import { T } from './texts';
import type { WebhookEndpoint } from './types';

interface WebhookListProps {
  webhooks: readonly WebhookEndpoint[];
  onDelete: (id: string) => Promise<boolean>;
  deletePending: boolean;
  onTest: (id: string) => Promise<boolean>;
  /** The webhook whose test event is on its way, if any. */
  testingId: string | null;
  /** The endpoint's attempts log (the page fetches it per endpoint). */
  renderAttempts: (webhook: WebhookEndpoint) => ReactNode;
}

const isActive = (w: WebhookEndpoint) => w.status === 'active';

export function WebhookList({ webhooks, onDelete, deletePending, onTest, testingId, renderAttempts }: WebhookListProps) {
  const [confirming, setConfirming] = useState<WebhookEndpoint | null>(null);

  if (!webhooks.length) {
    return (
      <EmptyState title="No webhooks yet.">
        <p>Add an endpoint above to be told, as it happens, when one of your canaries misses a check-in.</p>
      </EmptyState>
    );
  }

  async function confirmDelete() {
    if (confirming && (await onDelete(confirming.id))) setConfirming(null);
  }

  return (
    <>
      <ul className="dev-list" aria-label="Your webhooks">
        {webhooks.map((w) => (
          <li key={w.id} className="dev-item">
            <div className="dev-item__head">
              <h4 className="dev-item__name dev-item__url">{w.url}</h4>
              <Badge tone={isActive(w) ? 'active' : 'missed'}>{isActive(w) ? 'Active' : 'Disabled'}</Badge>
            </div>
            {!isActive(w) ? (
              <p className="alert dev-item__disabled">
                Disabled
                {w.disabled_at ? (
                  <>
                    {' '}
                    on <time dateTime={w.disabled_at}>{formatDateTime(w.disabled_at)}</time>
                  </>
                ) : null}
                : {w.disabled_reason ?? 'no events are sent to this endpoint.'}
              </p>
            ) : null}
            <dl className="facts">
              <div>
                <dt>ID</dt>
                <dd>
                  <code>{w.id}</code>
                </dd>
              </div>
              <div>
                <dt>Event</dt>
                <dd>
                  <code>{w.event}</code>
                </dd>
              </div>
              <div>
                <dt>Retries</dt>
                <dd>{w.retry ? 'On' : 'Off'}</dd>
              </div>
              {w.sandbox ? (
                <div>
                  <dt>Mode</dt>
                  <dd>Sandbox</dd>
                </div>
              ) : null}
              {w.hmac_secret ? (
                <div>
                  <dt>Signing secret</dt>
                  <dd>
                    <code>{w.hmac_secret}</code>
                  </dd>
                </div>
              ) : null}
            </dl>
            <div className="button-row">
              <Button variant="secondary" disabled={testingId === w.id} onClick={() => void onTest(w.id)}>
                {testingId === w.id ? 'Sending…' : 'Send test event'}
                <span className="visually-hidden"> to {w.url}</span>
              </Button>
              <Button variant="danger" onClick={() => setConfirming(w)}>
                Delete<span className="visually-hidden"> webhook {w.url}</span>
              </Button>
            </div>
            <h5 className="dev-item__log-title">Delivery attempts</h5>
            {renderAttempts(w)}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={T.deleteWebhookTitle}
        description={
          confirming
            ? `No more events are sent to ${confirming.url}, including retries still waiting, and its delivery log is deleted. This cannot be undone.`
            : null
        }
        confirmLabel={T.deleteWebhookConfirm}
        confirmVariant="danger"
        pending={deletePending}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
