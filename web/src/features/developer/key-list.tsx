import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { RevocableList } from '../../components/revocable-list';
import { EmptyState } from '../../components/empty-state';
import { formatDateTime } from '../../lib/format-time';
import { formatCount, formatLastUsed, keyPrefix } from './format';
import { T } from './texts';
import type { ApiKey } from './types';

interface KeyListProps {
  keys: readonly ApiKey[];
  /** Resolves true once revoked. */
  onRevoke: (id: string) => Promise<boolean>;
  revokePending: boolean;
}

export function KeyList({ keys, onRevoke, revokePending }: KeyListProps) {
  return (
    <RevocableList
      items={keys}
      label="Your API keys"
      empty={
        <EmptyState title="No API keys yet.">
          <p>Create one above to call the Afterword API from your own scripts and tools.</p>
        </EmptyState>
      }
      renderItem={(k, revoke) => (
        <>
          <div className="dev-item__head">
            <h4 className="dev-item__name">{k.client_name}</h4>
            {k.sandbox ? <Badge tone="grace">Sandbox</Badge> : <Badge tone="accent">Live</Badge>}
          </div>
          <dl className="facts">
            <div>
              <dt>Key</dt>
              <dd>
                <code>{keyPrefix(k.prefix)}</code>
              </dd>
            </div>
            <div>
              <dt>Scopes</dt>
              <dd>
                {k.scopes.length
                  ? k.scopes.map((s) => (
                      <code key={s} className="dev-item__scope">
                        {s}
                      </code>
                    ))
                  : 'None'}
              </dd>
            </div>
            <div>
              <dt>Calls</dt>
              <dd>{formatCount(k.usage_count)}</dd>
            </div>
            <div>
              <dt>Last used</dt>
              <dd>{k.last_used_at ? <time dateTime={k.last_used_at}>{formatLastUsed(k.last_used_at)}</time> : 'Never'}</dd>
            </div>
            <div>
              <dt>Created</dt>
              <dd>
                <time dateTime={k.created_at}>{formatDateTime(k.created_at)}</time>
              </dd>
            </div>
          </dl>
          <div className="button-row">
            <Button variant="danger" onClick={revoke}>
              Revoke<span className="visually-hidden"> key {k.client_name}</span>
            </Button>
          </div>
        </>
      )}
      confirm={{
        title: T.revokeTitle,
        description: (k) =>
          `“${k.client_name}” (${keyPrefix(k.prefix)}) stops working at once: every call made with it is refused from now on. This cannot be undone.`,
        label: T.revokeConfirm,
      }}
      onRevoke={onRevoke}
      revokePending={revokePending}
    />
  );
}
