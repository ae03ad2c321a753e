import { Button } from '../../components/button';
import { PickedFileList, type PickedFile } from '../e2ee/attachment-picker';
import { T } from '../e2ee/texts';

interface CreatedMessageUploadsProps {
  files: PickedFile[];
  /** Uploads are running: neither button may start another or leave the page under them. */
  busy: boolean;
  /** Shows "Retry failed uploads" (some upload failed). */
  failed: boolean;
  onRetry: () => void;
  onOpen: () => void;
}

/** After an encrypted message with files is created: where each upload is, a retry for the failed ones, and the way on. */
export function CreatedMessageUploads({ files, busy, failed, onRetry, onOpen }: CreatedMessageUploadsProps) {
  return (
    <div className="create-form create-form--done">
      <p className="note">{T.createdTitle}</p>
      <p>{T.createdUploads}</p>
      <PickedFileList files={files} />
      <div className="button-row">
        {failed ? (
          <Button variant="secondary" disabled={busy} onClick={onRetry}>
            {T.retryUploads}
          </Button>
        ) : null}
        <Button disabled={busy} onClick={onOpen}>
          {T.openMessage}
        </Button>
      </div>
    </div>
  );
}
