import { formatBytes } from '@afterword/worker/contracts/attachments';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { QueryState } from '../../components/query-state';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { formatDateTime } from '../../lib/format-time';
import { restFetch } from '../../lib/rest';
import { trpc } from '../../lib/trpc';
import { saveBytes } from '../e2ee/files-api';
import { T } from './texts';

/**
 * Copies of accounts left to the signed-in person (docs/decisions/legacy-copies.md). Shown only when
 * there is one: most people never receive any, and an empty card would only raise a question.
 */
export function CopiesLeftToYou() {
  const copies = trpc.legacy.copies.useQuery();
  const [pending, setPending] = useState<string | null>(null);
  if (copies.isSuccess && !copies.data.length) return null;

  async function download(id: string) {
    setPending(id);
    try {
      const res = await restFetch(`/api/legacy-copies/${id}/download`);
      saveBytes(new Uint8Array(await res.arrayBuffer()), `afterword-legacy-${id.slice(0, 8)}.zip`, 'application/zip');
    } catch (err) {
      toast.error(readApiError(err).detail ?? T.downloadFailed);
    } finally {
      setPending(null);
    }
  }

  return (
    <Card title={T.copiesTitle}>
      <p>{T.copiesIntro}</p>
      <QueryState query={copies} loading="Loading the copies left to you" failed={T.copiesFailed} lines={2}>
        {(list) => (
          <ul className="heirs">
            {list.map((c) => (
              <li key={c.id} className="heirs__item">
                <span className="email">{c.from}</span>, {formatDateTime(c.ready_at ?? c.created_at)} · {c.size == null ? '' : formatBytes(c.size)}{' '}
                <Button
                  variant="secondary"
                  disabled={pending === c.id}
                  onClick={() => void download(c.id)}
                  aria-label={`${T.download} the copy from ${c.from}`}
                >
                  {pending === c.id ? T.downloading : T.download}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}
