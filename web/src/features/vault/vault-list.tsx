import { formatBytes } from '@afterword/worker/contracts/attachments';
import type { VaultItemView } from '@afterword/worker/contracts/vault';
import { useState } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { copyText } from '../../lib/clipboard';
import { formatDateTime } from '../../lib/format-time';
import { isOpen, PAUSED_LABEL, STATUS_LABEL, STATUS_TONE } from '../messages/format';
import { QrCode } from './qr-code';
import { T } from './texts';

interface VaultListProps {
  items: readonly VaultItemView[];
  /** Resolves true once deleted (a failure is already said). */
  onDelete: (id: string) => Promise<boolean>;
  deletePending: boolean;
}

/** The server's words, except an exact date: those are an ISO instant, shown in the reader's zone. */
const whenOf = (item: VaultItemView) =>
  item.condition_type === 'exact_date' && item.condition_value ? `On ${formatDateTime(item.condition_value)}` : item.condition_text;

const recipientOf = (item: VaultItemView) => (item.recipient_name ? `${item.recipient_name} (${item.recipient_email})` : item.recipient_email);

/** The owner's vault items, newest first; each can be deleted until it is released. */
export function VaultList({ items, onDelete, deletePending }: VaultListProps) {
  const [confirming, setConfirming] = useState<VaultItemView | null>(null);

  if (!items.length) {
    return (
      <EmptyState title={T.emptyTitle}>
        <p>{T.emptyBody}</p>
      </EmptyState>
    );
  }

  async function confirmDelete() {
    if (confirming && (await onDelete(confirming.id))) setConfirming(null);
  }

  return (
    <>
      <ul className="dev-list" aria-label={T.listLabel}>
        {items.map((item) => (
          <li key={item.id} className="dev-item vault-item" aria-label={item.name}>
            <div className="dev-item__head">
              <h3 className="dev-item__name">{item.name}</h3>
              <Badge tone={STATUS_TONE[item.status]}>{STATUS_LABEL[item.status]}</Badge>
              {item.paused ? <Badge tone="grace">{PAUSED_LABEL}</Badge> : null}
            </div>
            <div className="vault-item__body">
              <dl className="facts">
                <div>
                  <dt>Size</dt>
                  <dd>{formatBytes(item.size)}</dd>
                </div>
                <div>
                  <dt>Recipient</dt>
                  <dd>{recipientOf(item)}</dd>
                </div>
                <div>
                  <dt>When</dt>
                  <dd>{whenOf(item)}</dd>
                </div>
                {item.released_at ? (
                  <div>
                    <dt>{T.released}</dt>
                    <dd>
                      <time dateTime={item.released_at}>{formatDateTime(item.released_at)}</time>
                    </dd>
                  </div>
                ) : null}
                {item.legal_note ? (
                  <div>
                    <dt>Legal note</dt>
                    <dd>{item.legal_note}</dd>
                  </div>
                ) : null}
                <div>
                  <dt>{T.claimLink}</dt>
                  <dd>
                    <a className="dev-item__url" href={item.claim_url}>
                      {item.claim_url}
                    </a>
                  </dd>
                </div>
              </dl>
              <QrCode url={item.qr_code_url} name={item.name} />
            </div>
            <div className="button-row">
              <Button variant="secondary" onClick={() => void copyText(item.claim_url, T.linkCopied)}>
                {T.copyLink}
                <span className="visually-hidden"> for {item.name}</span>
              </Button>
              {isOpen(item.status) ? (
                <Button variant="danger" onClick={() => setConfirming(item)}>
                  Delete<span className="visually-hidden"> {item.name}</span>
                </Button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={T.deleteTitle}
        description={
          confirming
            ? `“${confirming.name}” and its encrypted file are deleted, and it will not be released to ${recipientOf(confirming)}. Its claim link stops working. This cannot be undone.`
            : null
        }
        confirmLabel={T.deleteConfirm}
        confirmVariant="danger"
        pending={deletePending}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
