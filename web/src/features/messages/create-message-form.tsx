import { DELIVERY_METHODS, type DeliveryMethod, type TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useFocusFirstInvalid } from '../../lib/use-focus-first-invalid';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Field, TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { buildMessageInput, E2eeRefusal } from './message-input';
import { type Errors, NO_ERRORS, placeServerErrors } from './message-form-errors';
import { formatDateTime } from '../../lib/format-time';
import { useSingleFlight } from '../../lib/use-single-flight';
import { AttachmentPicker, deliverAtWithFiles, PickedFileList, type PickedFile } from '../e2ee/attachment-picker';
import type { EncryptedUpload } from '../e2ee/files-api';
import type { KeysApi } from '../e2ee/keys-api';
import { useE2eeAvailability } from './use-e2ee-availability';
import { E2EE_SAVED_TOAST, E2EE_WARNING, T } from '../e2ee/texts';
import { ContactPicker } from '../contacts/contact-picker';
import type { ContactOption, Reachability } from '../contacts/types';
import { useReachability } from '../contacts/use-reachability';
import { reachSentence, whenSentSentence } from './consequences';
import { localDateTimeToIso, METHOD_LABEL } from './format';
import { DRAFT_TEXTS, useMessageDraft } from './use-message-draft';
import { EMPTY_DRAFT_FIELDS, type DraftStore, type MessageDraftFields } from './message-draft';
import { newRule, RulesEditor, type RuleDraft } from './rules-editor';
import { VoiceRecorder, type Recording } from './voice-recorder';

export { E2EE_WARNING, E2EE_SAVED_TOAST, placeServerErrors };
export const CREATE_SUCCESS_TOAST = 'Message queued';
export const CREATE_FAILURE_TOAST = 'Failed to create message';

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
  const [content, setContent] = useState('');
  const [recipient, setRecipient] = useState('');
  const [method, setMethod] = useState<DeliveryMethod>('email');
  const [deliverAt, setDeliverAt] = useState('');
  const [rules, setRules] = useState<RuleDraft[]>([]);
  // Null until the person ticks or unticks the box: until then it follows whether encryption is possible.
  const [e2eeChoice, setE2eeChoice] = useState<boolean | null>(null);
  const e2eeAvailability = useE2eeAvailability(e2ee?.keys, recipient);
  const useE2ee = e2eeChoice ?? e2eeAvailability === 'available';
  const [recording, setRecording] = useState<Recording | null>(null);
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [created, setCreated] = useState<{ id: string } | null>(null);
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  /** Puts a draft's fields into the form (a restored draft, or the empty one on discard). */
  const fill = (f: MessageDraftFields) => {
    setContent(f.content);
    setRecipient(f.recipient);
    setMethod(f.method as DeliveryMethod);
    setDeliverAt(f.deliverAt);
    setRules(f.rules.map((r) => ({ ...newRule(r.trigger_type), value: r.value, expire: r.expire })));
  };
  const draft = useMessageDraft(drafts, { content, recipient, method, deliverAt, rules }, fill);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, errors);
  const { pending, run, isBusy } = useSingleFlight();
  const uploads = useSingleFlight();
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
  const e2eeNote =
    e2eeAvailability === null ? null : e2eeAvailability === 'available' ? (useE2ee ? T.e2eeOnForRecipient : null) : T.e2eeUnavailable[e2eeAvailability];

  const buildInput = () => buildMessageInput({ content, recipient, method, deliverAt, rules, recording, files, useE2ee }, e2ee?.keys);

  /** Uploads every file not uploaded yet, one at a time, marking each 'Encrypted and uploaded' or 'Failed'. */
  async function uploadAll(messageId: string, list: PickedFile[]) {
    if (!e2ee) return;
    let current = list;
    const mark = (id: string, patch: Partial<PickedFile>) => {
      current = current.map((f) => (f.id === id ? { ...f, ...patch } : f));
      setFiles(current);
    };
    for (const f of list) {
      if (f.status === 'uploaded') continue;
      mark(f.id, { status: 'uploading', error: null });
      try {
        await e2ee.upload({ messageId, ciphertext: f.encrypted.ciphertext, ivBase64: f.encrypted.ivBase64, name: f.name });
        mark(f.id, { status: 'uploaded' });
      } catch (error) {
        mark(f.id, { status: 'failed', error: readApiError(error).detail ?? (error instanceof Error && error.message ? error.message : null) });
      }
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy() || created) return;
    await run(async () => {
      setErrors(NO_ERRORS);
      try {
        const input = await buildInput();
        const message = await create(input);
        await draft.sent();
        toast.success(input.use_e2ee ? E2EE_SAVED_TOAST : CREATE_SUCCESS_TOAST);
        const toUpload = input.use_e2ee ? files : [];
        if (!toUpload.length) {
          onCreated(message);
          return;
        }
        setCreated(message);
        await uploadAll(message.id, toUpload);
      } catch (error) {
        toast.error(CREATE_FAILURE_TOAST);
        setErrors(error instanceof E2eeRefusal ? error.errors : placeServerErrors(error));
      }
    });
  }

  if (created) {
    const failed = files.some((f) => f.status === 'failed');
    const busy = pending || uploads.pending || files.some((f) => f.status === 'uploading');
    return (
      <div className="create-form create-form--done">
        <p className="note">{T.createdTitle}</p>
        <p>{T.createdUploads}</p>
        <PickedFileList files={files} />
        <div className="button-row">
          {failed ? (
            <Button variant="secondary" disabled={busy} onClick={() => void uploads.run(() => uploadAll(created.id, files))}>
              {T.retryUploads}
            </Button>
          ) : null}
          <Button disabled={busy} onClick={() => onCreated(created)}>
            {T.openMessage}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form ref={formRef} className="create-form" onSubmit={handleSubmit} noValidate aria-label="Create message">
      {draft.restoredAt !== null ? (
        <div className="note draft-note" role="status">
          <p>{DRAFT_TEXTS.restored(formatDateTime(draft.restoredAt))}</p>
          <Button
            variant="secondary"
            onClick={() =>
              void draft.discard().then(() => {
                fill(EMPTY_DRAFT_FIELDS);
                setE2eeChoice(null);
              })
            }
          >
            {DRAFT_TEXTS.discard}
          </Button>
        </div>
      ) : null}
      <Field label="Message" error={errors.fields.content} hint="What you want them to read.">
        {(control) => <textarea className="input textarea" name="content" rows={8} value={content} onChange={(e) => setContent(e.target.value)} {...control} />}
      </Field>
      {withPicker ? <ContactPicker contacts={contacts} selected={picked} onPick={(c) => setRecipient(c.user_id)} /> : null}
      <div className="form-row">
        <TextField
          label="Recipient User ID"
          name="recipient_user_id"
          autoComplete="off"
          spellCheck={false}
          value={recipient}
          onChange={(e) => setRecipient(e.target.value)}
          hint="The recipient's Afterword user ID. They find it on their Notifications page."
          error={errors.fields.recipient_user_id}
        />
        <SelectField
          label="Delivery method"
          name="delivery_method"
          options={METHOD_OPTIONS}
          value={method}
          onChange={(e) => setMethod(e.target.value as DeliveryMethod)}
          hint="How they are told once it is released. It is always in their inbox too."
          error={errors.fields.delivery_method}
        />
        <TextField
          label="Deliver at"
          name="deliver_at"
          type="datetime-local"
          value={deliverAt}
          onChange={(e) => setDeliverAt(e.target.value)}
          hint="Your local time. Leave empty for now."
          error={errors.fields.deliver_at}
        />
      </div>
      <RulesEditor rules={rules} onChange={setRules} errors={errors.rules} error={errors.fields.rules} />
      <VoiceRecorder value={recording} onChange={setRecording} error={errors.fields.audio_base64} disabled={pending} />
      <CheckboxField
        label="Use end-to-end encryption"
        name="use_e2ee"
        checked={useE2ee}
        onChange={(e) => setE2eeChoice(e.target.checked)}
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
      {useE2ee && e2ee ? <AttachmentPicker files={files} onChange={setFiles} disabled={pending} storage={e2ee.storage} /> : null}
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
