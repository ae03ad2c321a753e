import { DELIVERY_METHODS, type DeliveryMethod, type TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { CheckboxField } from '../../components/checkbox';
import { Field, TextField } from '../../components/field';
import { SelectField } from '../../components/select';
import { toast } from '../../components/toast';
import { readErrorDetail } from '../../lib/api-error';
import { readFieldIssues } from '../../lib/field-issues';
import { useSingleFlight } from '../../lib/use-single-flight';
import { localDateTimeToIso, METHOD_LABEL } from './format';
import { RulesEditor, toRuleInput, type RuleDraft, type RuleErrors } from './rules-editor';
import { blobToBase64, VoiceRecorder, type Recording } from './voice-recorder';

export const E2EE_WARNING =
  'Warning: This will send an unreadable encrypted message to the recipient who can only decrypt it if they hold the required private key.';
export const CREATE_SUCCESS_TOAST = 'Message queued';
export const CREATE_FAILURE_TOAST = 'Failed to create message';

const METHOD_OPTIONS = DELIVERY_METHODS.map((m) => ({ value: m, label: METHOD_LABEL[m] }));

type TopField = 'content' | 'recipient_user_id' | 'delivery_method' | 'deliver_at' | 'use_e2ee' | 'audio_base64' | 'rules';

interface Errors {
  fields: Partial<Record<TopField, string>>;
  rules: Partial<Record<number, RuleErrors>>;
  /** Problems that belong to no single field (or a plain detail), shown above the button. */
  form: string[];
}

const NO_ERRORS: Errors = { fields: {}, rules: {}, form: [] };
const TOP_FIELDS = new Set<string>(['content', 'recipient_user_id', 'delivery_method', 'deliver_at', 'use_e2ee', 'audio_base64', 'rules']);
const RULE_FIELDS = new Set<string>(['trigger_type', 'trigger_value', 'expire_window']);

/** Places the server's 422 details under their fields; whatever has no field goes above the button. */
export function placeServerErrors(error: unknown): Errors {
  const issues = readFieldIssues(error);
  if (!issues) {
    const detail = readErrorDetail(error);
    return { ...NO_ERRORS, form: detail ? [detail] : [] };
  }
  const out: Errors = { fields: {}, rules: {}, form: [] };
  for (const { path, msg } of issues) {
    const [top, index, leaf] = path;
    if (top === 'rules' && typeof index === 'number') {
      const key = typeof leaf === 'string' && RULE_FIELDS.has(leaf) ? (leaf as keyof RuleErrors) : 'rule';
      const rule = (out.rules[index] ??= {});
      rule[key] ??= msg;
    } else if (typeof top === 'string' && TOP_FIELDS.has(top)) {
      out.fields[top as TopField] ??= msg;
    } else {
      out.form.push(msg);
    }
  }
  return out;
}

interface CreateMessageFormProps {
  /** Rejects with the server's error on failure. */
  create: (input: TCreateMessageInput) => Promise<{ id: string }>;
  onCreated: (message: { id: string }) => void;
}

/**
 * SPEC sections 4, 5 and 8: no required check before sending; 'Creating…' while submitting (repeat
 * submits ignored); 'Message queued' or 'Failed to create message', with the server's details under
 * the fields they concern.
 */
export function CreateMessageForm({ create, onCreated }: CreateMessageFormProps) {
  const [content, setContent] = useState('');
  const [recipient, setRecipient] = useState('');
  const [method, setMethod] = useState<DeliveryMethod>('email');
  const [deliverAt, setDeliverAt] = useState('');
  const [rules, setRules] = useState<RuleDraft[]>([]);
  const [useE2ee, setUseE2ee] = useState(false);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const { pending, run, isBusy } = useSingleFlight();
  const warningId = useId();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy()) return;
    await run(async () => {
      setErrors(NO_ERRORS);
      try {
        const deliver_at = localDateTimeToIso(deliverAt);
        const input: TCreateMessageInput = {
          recipient_user_id: recipient,
          content,
          delivery_method: method,
          use_e2ee: useE2ee,
          rules: rules.map(toRuleInput),
          consent: true,
          ...(deliver_at ? { deliver_at } : {}),
          ...(recording ? { audio_base64: await blobToBase64(recording.blob) } : {}),
        };
        const created = await create(input);
        toast.success(CREATE_SUCCESS_TOAST);
        onCreated(created);
      } catch (error) {
        toast.error(CREATE_FAILURE_TOAST);
        setErrors(placeServerErrors(error));
      }
    });
  }

  return (
    <form className="create-form" onSubmit={handleSubmit} noValidate aria-label="Create message">
      <Field label="Message" error={errors.fields.content} hint="What you want them to read.">
        {(control) => (
          <textarea className="input textarea" name="content" rows={8} value={content} onChange={(e) => setContent(e.target.value)} {...control} />
        )}
      </Field>
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
        onChange={(e) => setUseE2ee(e.target.checked)}
        describedBy={useE2ee ? warningId : undefined}
        error={errors.fields.use_e2ee}
      />
      {useE2ee ? (
        <p id={warningId} className="warning">
          {E2EE_WARNING}
        </p>
      ) : null}
      {errors.form.length ? (
        <div role="alert" className="alert">
          {errors.form.map((m, i) => (
            <p key={i} className="alert__line">{m}</p>
          ))}
        </div>
      ) : null}
      <Button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create message'}
      </Button>
    </form>
  );
}
