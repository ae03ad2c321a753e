import { useState } from 'react';
import { readApiError } from '../../lib/api-error';
import { useSingleFlight } from '../../lib/use-single-flight';
import type { PickedFile } from '../e2ee/attachment-picker';
import type { EncryptedUpload } from '../e2ee/files-api';

/**
 * An E2EE message's files: picked and encrypted before the message exists, uploaded after it is created
 * (an upload needs the message's id). A failed upload can be tried again; the ones that made it are skipped.
 */
export function useAttachmentUploads(upload: ((file: EncryptedUpload) => Promise<unknown>) | undefined) {
  const [files, setFiles] = useState<PickedFile[]>([]);
  const retries = useSingleFlight();

  /** Uploads every file not uploaded yet, one at a time, marking each 'Encrypted and uploaded' or 'Failed'. */
  async function uploadAll(messageId: string, list: PickedFile[]) {
    if (!upload) return;
    // Each mark builds on the last one: the state of this render would drop the marks made since.
    let current = list;
    const mark = (id: string, patch: Partial<PickedFile>) => {
      current = current.map((f) => (f.id === id ? { ...f, ...patch } : f));
      setFiles(current);
    };
    for (const f of list) {
      if (f.status === 'uploaded') continue;
      mark(f.id, { status: 'uploading', error: null });
      try {
        await upload({ messageId, ciphertext: f.encrypted.ciphertext, ivBase64: f.encrypted.ivBase64, name: f.name });
        mark(f.id, { status: 'uploaded' });
      } catch (error) {
        mark(f.id, { status: 'failed', error: readApiError(error).detail ?? (error instanceof Error && error.message ? error.message : null) });
      }
    }
  }

  return {
    files,
    setFiles,
    uploadAll,
    retry: (messageId: string) => void retries.run(() => uploadAll(messageId, files)),
    failed: files.some((f) => f.status === 'failed'),
    busy: retries.pending || files.some((f) => f.status === 'uploading'),
  };
}
