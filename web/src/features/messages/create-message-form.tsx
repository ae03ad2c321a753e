import { DELIVERY_METHODS, type DeliveryMethod, type TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { useId, useRef, useState, type ReactNode } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Field, TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { buildMessageInput, reusingLastInput } from './message-input';
import { placeServerErrors } from './message-form-errors';
import { formatDateTime } from '../../lib/format-time';
import { AttachmentPicker, deliverAtWithFiles } from '../e2ee/attachment-picker';
import type { EncryptedUpload } from '../e2ee/files-api';
import type { KeysApi } from '../e2ee/keys-api';
import { E2EE_SAVED_TOAST, E2EE_WARNING } from '../e2ee/texts';
import { ContactPicker } from '../contacts/contact-picker';
import type { ContactOption, Reachability } from '../contacts/types';
import { useReachability } from '../contacts/use-reachability';
import { reachSentence, whenSentSentence } from './consequences';
import { CreatedMessageUploads } from './created-message-uploads';
import { localDateTimeToIso, METHOD_LABEL } from './format';
import { DRAFT_TEXTS, useMessageDraft } from './use-message-draft';
import { EMPTY_DRAFT_FIELDS, type DraftStore } from './message-draft';
import { RulesEditor } from './rules-editor';
import { useAttachmentUploads } from './use-attachment-uploads';
import { useE2eeChoice } from './use-e2ee-choice';
import { useMessageFields } from './use-message-fields';
import { CREATE_FAILURE_TOAST, CREATE_SUCCESS_TOAST, useMessageSubmit } from './use-message-submit';
import { VoiceRecorder } from './voice-recorder';

export { E2EE_WARNING, E2EE_SAVED_TOAST, placeServerErrors, CREATE_SUCCESS_TOAST, CREATE_FAILURE_TOAST };

const METHOD_OPTIONS = DELIVERY_METHODS.map((m) => ({ value: m, label: METHOD_LABEL[m] }));

/** What an end-to-end encrypted message needs besides the create call. */
export interface E2eeCreateDeps {
  keys: Pick<KeysApi, 'whoami' | 'mine' | 'publicKeyOf'>;
  /** Uploads one encrypted file; rejects with the reason on failure. */
  upload: (file: EncryptedUpload) => Promise<unknown>;
  /** Storage use, shown by the file picker. */
  storage?: ReactNode;
}

interface CreateMessageFormProps {
  /** Rejects with the server's error on failure. */
  create: (input: TCreateMessageInput) => Promise<{ id: string }>;
  onCreated: (message: { id: string }) => void;
  e2ee?: E2eeCreateDeps;
  /** Accepted contacts for the recipient picker (undefined while loading). */
  contacts?: readonly ContactOption[];
  /** Shows the picker (a page that reads the contacts passes true). */
  withPicker?: boolean;
  /** How a picked contact can be reached (rejects for anyone who is not a contact). */
  reachability?: (userId: string) => Promise<Reachability>;
  /** The clock the "when" sentence reads (tests pin it). */
  now?: () => number;
  /** Keeps the half-written message on this device for `userId` (message-draft.ts); absent: no draft. */
  drafts?: { store: DraftStore; userId: string };
}

/**
 * docs/product.md "Messages and release rules": no required check before sending; 'Creating…' while submitting
 * (repeat submits ignored); 'Message queued' or 'Failed to create message', with the server's details under
 * the fields they concern.
 */
export function CreateMessageForm({ create, onCreated, e2ee, contacts, withPicker = false, reachability, now = Date.now, drafts }: CreateMessageFormProps) {
  const { fields, edit, fill } = useMessageFields();
  const { content, recipient, method, deliverAt, rules, recording } = fields;
  const encryption = useE2eeChoice(e2ee?.keys, recipient);
  const useE2ee = encryption.on;
  const draft = useMessageDraft(drafts, fields, fill);
  const uploads = useAttachmentUploads(e2ee?.upload);
  const { files } = uploads;
  // Sent again unchanged after a failure, the message goes as it was built (sealed once): its retry keeps its key.
  const keys = useRef(e2ee?.keys);
  keys.current = e2ee?.keys;
  const [buildOnce] = useState(() => reusingLastInput((values) => buildMessageInput(values, keys.current)));
  const { submit, pending, created, errors } = useMessageSubmit({
    buildInput: () => buildOnce({ ...fields, files, useE2ee }),
    create,
    onCreated,
    draft,
    uploads,
  });
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const warningId = useId();
  const noteId = useId();
  const picked = contacts?.find((c) => c.user_id === recipient.trim().toLowerCase());
  const reach = useReachability(reachability, picked?.user_id ?? null);
  const nowMs = now();
  // Encrypted files hold the message back until they are uploaded (attachment-picker.tsx): say the real time.
  const chosenAt = localDateTimeToIso(deliverAt);
  const whenSent = whenSentSentence({
    name: picked?.name ?? null,
    hasRules: rules.length > 0,
    deliverAt: useE2ee && files.length ? deliverAtWithFiles(chosenAt, nowMs) : chosenAt,
    nowMs,
  });
  const cannotReach = reachSentence(method, reach);
  const e2eeNote = encryption.note;

  if (created) {
    return (
      <CreatedMessageUploads
        files={files}
        busy={pending || uploads.busy}
        failed={uploads.failed}
        onRetry={() => uploads.retry(created.id)}
        onOpen={() => onCreated(created)}
      />
    );
  }

  return (
    <form ref={formRef} className="create-form" onSubmit={submit} noValidate aria-label="Create message">
      {draft.restoredAt !== null ? (
        <div className="note draft-note" role="status">
          <p>{DRAFT_TEXTS.restored(formatDateTime(draft.restoredAt))}</p>
          <Button
            variant="secondary"
            onClick={() =>
              void draft.discard().then(() => {
                fill(EMPTY_DRAFT_FIELDS);
                encryption.followKeys();
              })
            }
          >
            {DRAFT_TEXTS.discard}
          </Button>
        </div>
      ) : null}
      <Field label="Message" error={errors.fields.content} hint="What you want them to read.">
        {(control) => (
          <textarea className="input textarea" name="content" rows={8} value={content} onChange={(e) => edit({ content: e.target.value })} {...control} />
        )}
      </Field>
      {withPicker ? <ContactPicker contacts={contacts} selected={picked} onPick={(c) => edit({ recipient: c.user_id })} /> : null}
      <div className="form-row">
        <TextField
          label="Recipient User ID"
          name="recipient_user_id"
          autoComplete="off"
          spellCheck={false}
          value={recipient}
          onChange={(e) => edit({ recipient: e.target.value })}
          hint="The recipient's Afterword user ID. They find it on their Notifications page."
          error={errors.fields.recipient_user_id}
        />
        <SelectField
          label="Delivery method"
          name="delivery_method"
          options={METHOD_OPTIONS}
          value={method}
          onChange={(e) => edit({ method: e.target.value as DeliveryMethod })}
          hint="How they are told once it is released. It is always in their inbox too."
          error={errors.fields.delivery_method}
        />
        <TextField
          label="Deliver at"
          name="deliver_at"
          type="datetime-local"
          value={deliverAt}
          onChange={(e) => edit({ deliverAt: e.target.value })}
          hint="Your local time. Leave empty for now."
          error={errors.fields.deliver_at}
        />
      </div>
      <RulesEditor rules={rules} onChange={(next) => edit({ rules: next })} errors={errors.rules} error={errors.fields.rules} />
      <VoiceRecorder value={recording} onChange={(next) => edit({ recording: next })} error={errors.fields.audio_base64} disabled={pending} />
      <CheckboxField
        label="Use end-to-end encryption"
        name="use_e2ee"
        checked={useE2ee}
        onChange={(e) => encryption.choose(e.target.checked)}
        describedBy={useE2ee ? warningId : e2eeNote ? noteId : undefined}
        error={errors.fields.use_e2ee}
      />
      {e2eeNote ? (
        <p id={noteId} className="note">
          {e2eeNote}
        </p>
      ) : null}
      {useE2ee ? (
        <p id={warningId} className="warning">
          {E2EE_WARNING}
        </p>
      ) : null}
      {useE2ee && e2ee ? <AttachmentPicker files={files} onChange={uploads.setFiles} disabled={pending} storage={e2ee.storage} /> : null}
      {errors.form.length ? (
        <div role="alert" className="alert">
          {errors.form.map((m, i) => (
            <p key={i} className="alert__line">
              {m}
            </p>
          ))}
        </div>
      ) : null}
      <div className="consequences" aria-live="polite">
        <p className="note">{whenSent}</p>
        {cannotReach ? <p className="warning">{cannotReach}</p> : null}
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create message'}
      </Button>
    </form>
  );
}
