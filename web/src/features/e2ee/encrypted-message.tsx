import { NO_WORDS } from '../messages/format';
import { formatBytes, type AttachmentView } from '@afterword/worker/contracts/attachments';
import type { TSealedPayload } from '@afterword/worker/contracts/e2ee';
import type { MessageView } from '@afterword/worker/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Button } from '../../components/button';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { decryptFile, openAudio } from '../../crypto';
import { useObjectUrl } from '../../lib/use-object-url';
import { fetchAttachmentCiphertext, fetchMessageAttachments, fetchMessageAudio, saveBytes } from './files-api';
import { canonicalB64u } from './seal';
import { T } from './texts';
import { ConnectedUnlockPrompt } from './unlock-prompt';
import { useOpenedMessage, useReader, type OpenedMessage, type Reader } from './use-opened-message';

/** Where an opened message's binary parts come from (REST by default; tests pass fakes). */
export interface SealedFiles {
  listAttachments(messageId: string, signal?: AbortSignal): Promise<AttachmentView[]>;
  ciphertext(attachmentId: string): Promise<Uint8Array>;
  audio(messageId: string, signal?: AbortSignal): Promise<Uint8Array>;
  save(bytes: Uint8Array, name: string, type: string): void;
}

export const restSealedFiles: SealedFiles = {
  listAttachments: (messageId, signal) => fetchMessageAttachments(messageId, signal),
  ciphertext: (id) => fetchAttachmentCiphertext(id),
  audio: (id, signal) => fetchMessageAudio(id, signal),
  save: saveBytes,
};

interface EncryptedMessageBodyProps {
  message: Pick<MessageView, 'id' | 'use_e2ee' | 'content_encrypted' | 'has_audio'>;
  opened: OpenedMessage;
  /** Shown while the key is locked. */
  unlockPrompt: ReactNode;
  files?: SealedFiles;
}

/** An E2EE message opened in the browser: its text, recording and files — or why it cannot be opened. */
export function EncryptedMessageBody({ message, opened, unlockPrompt, files = restSealedFiles }: EncryptedMessageBodyProps) {
  if (opened.state === 'locked') return <div className="message-content--sealed">{unlockPrompt}</div>;
  if (opened.state === 'opening' || opened.state === 'plain') return <Skeleton lines={3} label={T.decrypting} />;
  if (opened.state === 'failed') {
    return (
      <p role="alert" className="alert e2ee-failure">
        {opened.message}
      </p>
    );
  }
  const { payload, contentKey } = opened;
  return (
    <>
      <p className="muted e2ee-note">{T.encryptedNote}</p>
      {payload.text ? (
        <div className="message-content">{payload.text}</div>
      ) : (
        <p className="muted">{payload.audio ? 'This message is a voice recording only.' : 'This message has no text.'}</p>
      )}
      {payload.audio && message.has_audio ? (
        <div className="message-audio">
          <h3 className="message-audio__title">{T.audioTitle}</h3>
          <EncryptedAudio messageId={message.id} contentKey={contentKey} audio={payload.audio} files={files} />
        </div>
      ) : null}
      {payload.attachments?.length ? <EncryptedAttachments messageId={message.id} entries={payload.attachments} files={files} /> : null}
    </>
  );
}

function EncryptedAudio({
  messageId,
  contentKey,
  audio,
  files,
}: {
  messageId: string;
  contentKey: CryptoKey;
  audio: NonNullable<TSealedPayload['audio']>;
  files: SealedFiles;
}) {
  const recording = useQuery({
    // The IV names this recording's sealing (a CryptoKey cannot be part of a key; the IV is unique to it).
    queryKey: ['sealed-audio', messageId, audio.iv],
    queryFn: async ({ signal }) => {
      try {
        const plain = await openAudio(contentKey, audio.iv, await files.audio(messageId, signal));
        return new Blob([plain as Uint8Array<ArrayBuffer>], { type: audio.type || 'audio/webm' });
      } catch (error) {
        if (!signal.aborted) console.warn('Could not open the encrypted recording', error);
        throw error;
      }
    },
    // Decrypted bytes are not kept once the player leaves, and a recording that did not open will not on a retry.
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
  const url = useObjectUrl(recording.data);

  if (recording.isError) return <p className="muted">{T.audioFailed}</p>;
  if (!url) return <Skeleton lines={1} label="Decrypting the recording" />;
  // biome-ignore lint/a11y/useMediaCaption: a user's own voice recording: no caption or transcript exists for it (see docs/decisions/formatting.md)
  return <audio className="audio" controls preload="metadata" src={url} aria-label={T.audioTitle} />;
}

type Entry = NonNullable<TSealedPayload['attachments']>[number];
function EncryptedAttachments({ messageId, entries, files }: { messageId: string; entries: Entry[]; files: SealedFiles }) {
  const list = useQuery({
    queryKey: ['message-attachments', messageId],
    queryFn: ({ signal }) => files.listAttachments(messageId, signal),
  });

  let body: ReactNode;
  if (list.isPending) body = <Skeleton lines={2} label={T.attachmentsLoading} />;
  else if (list.isError) body = <ErrorState title={T.attachmentsFailed} read={list} />;
  else {
    const byIv = new Map(entries.map((e) => [canonicalB64u(e.iv), e]));
    const uploaded = new Set(list.data.map((a) => canonicalB64u(a.iv)));
    const missing = entries.filter((e) => !uploaded.has(canonicalB64u(e.iv)));
    body = (
      <ul className="attachment-list">
        {list.data.map((a) => (
          <AttachmentRow key={a.id} attachment={a} entry={byIv.get(canonicalB64u(a.iv)) ?? null} files={files} />
        ))}
        {missing.map((e) => (
          <li key={e.iv} className="attachment-item">
            <span className="attachment-item__name">{e.name}</span> <span className="muted">{T.attachmentMissing}</span>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="message-attachments">
      <h3 className="message-audio__title">{T.attachmentsTitle}</h3>
      {body}
    </div>
  );
}

function AttachmentRow({ attachment, entry, files }: { attachment: AttachmentView; entry: Entry | null; files: SealedFiles }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The name sealed in the payload is authenticated; the server's copy is only a label.
  const name = entry?.name || attachment.name;

  async function download() {
    if (!entry || busy) return;
    setBusy(true);
    setError(null);
    try {
      let ciphertext: Uint8Array;
      try {
        ciphertext = await files.ciphertext(attachment.id);
      } catch {
        setError(T.attachmentFetchFailed);
        return;
      }
      try {
        const plain = await decryptFile(entry.key, entry.iv, ciphertext);
        files.save(plain, name, entry.type);
      } catch {
        setError(T.attachmentFailed);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="attachment-item">
      <span className="attachment-item__name">{name}</span> <span className="muted">({formatBytes(entry?.size ?? Math.max(0, attachment.size - 16))})</span>{' '}
      {entry ? (
        <Button variant="secondary" onClick={() => void download()} disabled={busy} aria-label={`${T.attachmentDownload} ${name}`}>
          {busy ? T.attachmentDecrypting : T.attachmentDownload}
        </Button>
      ) : (
        <span className="muted">{T.attachmentNoKey}</span>
      )}
      {error ? (
        <p role="alert" className="field__error">
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** The view page's E2EE content: opened with this tab's key, or the unlock prompt. */
export function ConnectedEncryptedMessage({ message }: { message: Pick<MessageView, 'id' | 'use_e2ee' | 'content_encrypted' | 'has_audio'> }) {
  const { reader } = useReader();
  const opened = useOpenedMessage(message, reader);
  return <EncryptedMessageBody message={message} opened={opened} unlockPrompt={<ConnectedUnlockPrompt />} />;
}

/** A one-line preview for lists: the first line of the opened text, or a neutral label. */
export function EncryptedExcerpt({
  message,
  reader,
  max = 90,
}: {
  message: Pick<MessageView, 'id' | 'use_e2ee' | 'content_encrypted'>;
  reader: Reader | null;
  max?: number;
}) {
  const opened = useOpenedMessage(message, reader);
  if (opened.state !== 'open') return <>{T.encryptedExcerpt}</>;
  const first = opened.payload.text.trim().split('\n')[0]?.trim() ?? '';
  if (!first) return <>{opened.payload.audio ? 'Voice recording' : NO_WORDS}</>;
  return <>{first.length > max ? `${first.slice(0, max - 1).trimEnd()}…` : first}</>;
}
