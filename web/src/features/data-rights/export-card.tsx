import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { restFetch } from '../../lib/rest';
import { saveBytes } from '../e2ee/files-api';
import { T } from './texts';

/** The file name the server gave the archive, or a dated default. */
function archiveName(res: Response): string {
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return m?.[1] ?? `afterword-export-${new Date().toISOString().slice(0, 10)}.zip`;
}

/**
 * GET /api/legal/export needs the bearer header, which a plain link cannot send: fetched, then handed to
 * the browser as a download.
 */
export function ExportCard() {
  const [pending, setPending] = useState(false);
  async function download() {
    setPending(true);
    try {
      const res = await restFetch('/api/legal/export');
      saveBytes(new Uint8Array(await res.arrayBuffer()), archiveName(res), 'application/zip');
      toast.success(T.exported);
    } catch (err) {
      toast.error(readApiError(err).detail ?? T.exportFailed);
    } finally {
      setPending(false);
    }
  }
  return (
    <Card title={T.exportTitle}>
      <p>{T.exportIntro}</p>
      <Button onClick={() => void download()} disabled={pending}>
        {pending ? T.exporting : T.exportButton}
      </Button>
    </Card>
  );
}
