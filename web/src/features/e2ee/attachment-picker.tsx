import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_MESSAGE_MAX, formatBytes } from '@afterword/worker/contracts/attachments';
import { useId, useState, type ChangeEvent, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { encryptFile, type EncryptedFile } from '../../crypto';
import { copyText } from '../../lib/clipboard';
import { T, UPLOAD_DONE, UPLOAD_FAILED } from './texts';

/**
 * Uploads need the message's id, so they follow its creation; the server refuses files for a released
 * message. A message with files is therefore never due sooner than this after it is created.
 */
export const ATTACHMENT_UPLOAD_GRACE_MINUTES = 5;

/** The deliver_at to send: the chosen one, or now + the grace period if that is later. */
export function deliverAtWithFiles(deliverAt: string | null, now = Date.now()): string {
  const earliest = now + ATTACHMENT_UPLOAD_GRACE_MINUTES * 60_000;
  if (!deliverAt) return new Date(earliest).toISOString();
  const chosen = Date.parse(deliverAt);
  // Unreadable: sent as typed, so the server says what is wrong with it.
  if (!Number.isFinite(chosen)) return deliverAt;
  return chosen >= earliest ? deliverAt : new Date(earliest).toISOString();
}

export type UploadStatus = 'ready' | 'uploading' | 'uploaded' | 'failed';

export interface PickedFile {
  id: string;
  name: string;
  type: string;
  size: number;
  encrypted: EncryptedFile;
  status: UploadStatus;
  /** The server's reason when an upload failed. */
  error?: string | null;
}

export const STATUS_TEXT: Record<UploadStatus, string> = {
  ready: T.attachmentReady,
  uploading: T.attachmentUploading,
  uploaded: UPLOAD_DONE,
  failed: UPLOAD_FAILED,
};

let seq = 0;

/** Reads and encrypts each chosen file in the browser; refuses what the server would refuse anyway. */
export async function encryptPicked(files: File[], already: number): Promise<{ picked: PickedFile[]; problems: string[] }> {
  const picked: PickedFile[] = [];
  const problems: string[] = [];
  for (const file of files) {
    if (already + picked.length >= ATTACHMENTS_PER_MESSAGE_MAX) {
      problems.push(T.attachmentTooMany(ATTACHMENTS_PER_MESSAGE_MAX));
      break;
    }
    // The ciphertext is 16 bytes longer than the file.
    if (file.size + 16 > ATTACHMENT_MAX_BYTES) {
      problems.push(T.attachmentTooLarge(file.name, formatBytes(ATTACHMENT_MAX_BYTES - 16)));
      continue;
    }
    try {
      const encrypted = await encryptFile(new Uint8Array(await file.arrayBuffer()));
      picked.push({
        id: `f${++seq}`,
        name: file.name || 'attachment',
        type: file.type || 'application/octet-stream',
        size: file.size,
        encrypted,
        status: 'ready',
      });
    } catch {
      problems.push(T.attachmentEncryptFailed(file.name));
    }
  }
  return { picked, problems };
}

interface AttachmentPickerProps {
  files: PickedFile[];
  onChange: (files: PickedFile[]) => void;
  disabled?: boolean;
  /** Storage use, shown under the picker. */
  storage?: ReactNode;
}

/** E2EE files: chosen, encrypted at once in the browser, each key shown with a copy button. */
export function AttachmentPicker({ files, onChange, disabled, storage }: AttachmentPickerProps) {
  const inputId = useId();
  const hintId = useId();
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (!chosen.length) return;
    setBusy(true);
    try {
      const { picked, problems: found } = await encryptPicked(chosen, files.length);
      setProblems(found);
      if (picked.length) onChange([...files, ...picked]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="fieldset attachments">
      <legend className="fieldset__legend">{T.attachmentsLegend}</legend>
      <p id={hintId} className="field__hint">
        {T.attachmentsHint}
      </p>
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          {T.attachmentChoose}
        </label>
        <input id={inputId} type="file" multiple className="input" aria-describedby={hintId} onChange={(e) => void choose(e)} disabled={disabled || busy} />
      </div>
      {busy ? (
        <p className="field__hint" role="status">
          Encrypting…
        </p>
      ) : null}
      {problems.map((p, i) => (
        <p key={i} className="field__error">
          {p}
        </p>
      ))}
      {files.length ? (
        <>
          <PickedFileList files={files} onRemove={disabled ? undefined : (id) => onChange(files.filter((f) => f.id !== id))} />
          <p className="field__hint">{T.attachmentsHold(ATTACHMENT_UPLOAD_GRACE_MINUTES)}</p>
        </>
      ) : null}
      {storage}
    </fieldset>
  );
}

/** Each file with its key (copy button) and where its upload is. */
export function PickedFileList({ files, onRemove }: { files: PickedFile[]; onRemove?: (id: string) => void }) {
  return (
    <ul className="attachment-list">
      {files.map((f) => (
        <li key={f.id} className="attachment-item" aria-label={f.name}>
          <p className="attachment-item__head">
            <span className="attachment-item__name">{f.name}</span> <span className="muted">({formatBytes(f.size)})</span>{' '}
            <span className={`attachment-item__status attachment-item__status--${f.status}`} role="status">
              {STATUS_TEXT[f.status]}
            </span>
          </p>
          {f.status === 'failed' && f.error ? <p className="field__error">{f.error}</p> : null}
          <p className="attachment-item__key">
            <span className="muted">{T.attachmentKeyLabel}: </span>
            <code className="code-line">{f.encrypted.keyText}</code>
          </p>
          <div className="button-row">
            <Button
              variant="secondary"
              onClick={() => void copyText(f.encrypted.keyText, T.attachmentKeyCopied)}
              aria-label={`${T.attachmentCopyKey} for ${f.name}`}
            >
              {T.attachmentCopyKey}
            </Button>
            {onRemove && f.status === 'ready' ? (
              <Button variant="ghost" onClick={() => onRemove(f.id)} aria-label={`${T.attachmentRemove} ${f.name}`}>
                {T.attachmentRemove}
              </Button>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
