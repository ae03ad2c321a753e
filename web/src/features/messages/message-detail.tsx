import type { MessageView, SenderMessageDetail } from '@afterword/worker/contracts/messages';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field } from '../../components/field';
import { formatDateTime } from '../../lib/format-time';
import { AudioPlayer } from './audio-player';
import { DeliveryLog } from './delivery-log';
import { describeRule, isOpen, METHOD_LABEL, recipientLabel, PAUSED_LABEL, PAUSED_NOTE, UNDELIVERABLE_NOTE } from './format';
import { StatusBadge } from './status-badge';
import { StateHistory } from './state-history';

export const RELEASE_CONFIRM_TEXT = 'Release this message now?';
export const CANCEL_CONFIRM_TEXT = 'Cancel this message?';

/** The sender's record; a recipient reads received-message.tsx instead. */
export type MessageDetailData = SenderMessageDetail;

interface MessageDetailProps {
  data: MessageDetailData;
  /** Each resolves true on success. */
  onRelease: (id: string) => Promise<boolean>;
  onCancel: (id: string) => Promise<boolean>;
  pending: boolean;
  /**
   * The content of an end-to-end encrypted message, opened in the browser (features/e2ee). Without
   * it, such a message shows only that it is encrypted, never its ciphertext.
   */
  renderEncrypted?: (message: MessageView) => ReactNode;
}

/** messages/view/{id}, for its sender: content, audio, the sender's actions, the delivery log, the state history and a reply box. */
export function MessageDetail({ data, onRelease, onCancel, pending, renderEncrypted }: MessageDetailProps) {
  const { message, transitions, log } = data;
  const [confirming, setConfirming] = useState<'release' | 'cancel' | null>(null);
  const open = isOpen(message.status);
  const to = recipientLabel(message);
  const method = METHOD_LABEL[message.delivery_method];

  async function confirm() {
    const ok = confirming === 'release' ? await onRelease(message.id) : confirming === 'cancel' ? await onCancel(message.id) : false;
    if (ok) setConfirming(null);
  }

  return (
    <div className="stack">
      <Card title="Message">
        <dl className="facts">
          <div>
            <dt>Status</dt>
            <dd>
              <StatusBadge message={message} />
              {message.paused ? <Badge tone="grace">{PAUSED_LABEL}</Badge> : null}
            </dd>
          </div>
          <div>
            <dt>To</dt>
            <dd className="break">{to}</dd>
          </div>
          <div>
            {/* Under a rule the time is a floor, not a delivery: it goes when a rule fires, not before it. */}
            <dt>{message.rules.length ? 'Not before' : 'Deliver at'}</dt>
            <dd>
              <time dateTime={message.deliver_at}>{formatDateTime(message.deliver_at)}</time>
            </dd>
          </div>
          <div>
            <dt>Method</dt>
            <dd>{method}</dd>
          </div>
          {message.released_at ? (
            <div>
              <dt>Released</dt>
              <dd>
                <time dateTime={message.released_at}>{formatDateTime(message.released_at)}</time>
              </dd>
            </div>
          ) : null}
          {message.status === 'armed' && message.cancel_deadline ? (
            <div>
              <dt>Release after</dt>
              <dd>
                <time dateTime={message.cancel_deadline}>{formatDateTime(message.cancel_deadline)}</time>
              </dd>
            </div>
          ) : null}
        </dl>
        <WhatHappensNext message={message} />
        {isEncrypted(message) ? (
          renderEncrypted ? (
            renderEncrypted(message)
          ) : (
            <p className="note">This message is end-to-end encrypted. Only someone holding the required private key can read it.</p>
          )
        ) : (
          <MessageContent message={message} />
        )}
        {message.has_audio && !isEncrypted(message) ? (
          <div className="message-audio">
            <h3 className="message-audio__title">Voice recording</h3>
            <AudioPlayer messageId={message.id} />
          </div>
        ) : null}
        {message.rules.length ? (
          <div className="message-rules">
            <h3 className="message-rules__title">Rules</h3>
            <ul>
              {message.rules.map((rule, i) => (
                <li key={i}>
                  {describeRule(rule)}
                  {rule.fired_at ? (
                    <span className="muted">
                      {' '}
                      (fired <time dateTime={rule.fired_at}>{formatDateTime(rule.fired_at)}</time>)
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {open ? (
          <div className="button-row">
            <Button onClick={() => setConfirming('release')} disabled={pending}>
              Release now
            </Button>
            <Button variant="secondary" onClick={() => setConfirming('cancel')} disabled={pending}>
              Cancel message
            </Button>
          </div>
        ) : null}
      </Card>

      <Card title="Delivery log">
        <DeliveryLog entries={log} />
      </Card>

      <Card title="State history">
        <p className="muted">Every change to this message, with the reason for it.</p>
        <StateHistory transitions={transitions} />
      </Card>

      <Card title="Reply">
        <ReplyBox />
      </Card>

      <ConfirmDialog
        open={confirming === 'release'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={RELEASE_CONFIRM_TEXT}
        description={`It is released to ${to} at once, without waiting for its date or rules, and sent by ${method.toLowerCase()}. A released message cannot be taken back.`}
        confirmLabel="Release now"
        pending={pending}
        onConfirm={() => void confirm()}
      />
      <ConfirmDialog
        open={confirming === 'cancel'}
        onOpenChange={(o) => !o && setConfirming(null)}
        title={CANCEL_CONFIRM_TEXT}
        description={`It will never be delivered to ${to}. This cannot be undone.`}
        cancelLabel="Keep message"
        confirmLabel="Cancel message"
        confirmVariant="danger"
        pending={pending}
        onConfirm={() => void confirm()}
      />
    </div>
  );
}

function WhatHappensNext({ message }: { message: MessageView }) {
  const at = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;
  if (message.undeliverable) return <p className="note">{UNDELIVERABLE_NOTE}</p>;
  if (message.paused) return <p className="note">{PAUSED_NOTE}</p>;
  if (message.status === 'scheduled') {
    return message.rules.length ? (
      <p className="note">Released when any of its rules fires, and not before {at(message.deliver_at)}.</p>
    ) : (
      <p className="note">Will be released at {at(message.deliver_at)}.</p>
    );
  }
  if (message.status === 'armed') {
    return (
      <p className="note">
        A rule has fired. It is released {message.cancel_deadline ? <>at {at(message.cancel_deadline)}</> : 'soon'} unless you check in or cancel it before
        then.
      </p>
    );
  }
  return null;
}

/** Its text, audio and files are sealed: only a reader's browser can open them. */
const isEncrypted = (m: MessageView) => m.use_e2ee && !!m.content_encrypted;

function MessageContent({ message }: { message: MessageView }) {
  return message.content ? (
    <div className="message-content">{message.content}</div>
  ) : (
    <p className="muted">{message.has_audio ? 'This message is a voice recording only.' : 'This message has no text.'}</p>
  );
}

/**
 * docs/product.md "Messages and release rules": a reply box with no behaviour. It says so rather than
 * pretending to send.
 */
function ReplyBox() {
  const [text, setText] = useState('');
  return (
    <form aria-label="Reply" onSubmit={(e: FormEvent<HTMLFormElement>) => e.preventDefault()} noValidate>
      <Field label="Your reply" hint="Replies are not sent yet. Nothing you write here is stored or delivered.">
        {(control) => <textarea className="input textarea" rows={3} name="reply" value={text} onChange={(e) => setText(e.target.value)} {...control} />}
      </Field>
      <Button type="submit" variant="secondary">
        Reply
      </Button>
    </form>
  );
}
