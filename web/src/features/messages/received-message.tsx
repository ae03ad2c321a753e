import type { ReceivedMessage } from '@afterword/worker/contracts/messages';
import type { ReactNode } from 'react';
import { Card } from '../../components/card';
import { formatDateTime } from '../../lib/format-time';
import { AudioPlayer } from './audio-player';
import { fromFull, fromLabel, releaseReasonText } from './release-reason';

interface ReceivedMessageViewProps {
  message: ReceivedMessage;
  /** The content of an end-to-end encrypted message, opened in the browser (features/e2ee). */
  renderEncrypted?: (message: ReceivedMessage) => ReactNode;
}

/**
 * A released message as its recipient reads it: who it is from, when and why it reached them, its
 * text, recording and files. Nothing of the sender's side: no status, channel, rules, log or history.
 */
export function ReceivedMessageView({ message, renderEncrypted }: ReceivedMessageViewProps) {
  const from = fromLabel(message);
  const sealed = message.use_e2ee && !!message.content_encrypted;
  return (
    <Card title="Message">
      <dl className="facts">
        <div>
          <dt>From</dt>
          <dd className="break">{fromFull(message)}</dd>
        </div>
        <div>
          <dt>Released to you</dt>
          <dd>
            <time dateTime={message.released_at}>{formatDateTime(message.released_at)}</time>
          </dd>
        </div>
      </dl>
      <p className="note received-reason">{releaseReasonText(message.release_reason, from)}</p>
      {sealed ? (
        renderEncrypted ? (
          renderEncrypted(message)
        ) : (
          <p className="note">This message is end-to-end encrypted. Only someone holding the required private key can read it.</p>
        )
      ) : (
        <>
          {message.content ? (
            <div className="message-content">{message.content}</div>
          ) : (
            <p className="muted">{message.has_audio ? 'This message is a voice recording only.' : 'This message has no text.'}</p>
          )}
          {message.has_audio ? (
            <div className="message-audio">
              <h3 className="message-audio__title">Voice recording</h3>
              <AudioPlayer messageId={message.id} />
            </div>
          ) : null}
        </>
      )}
    </Card>
  );
}
