import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { readApiError } from '../../lib/api-error';
import { deliverAtWithFiles, type PickedFile } from '../e2ee/attachment-picker';
import { readersFor, type KeysApi } from '../e2ee/keys-api';
import { sealNewMessage } from '../e2ee/seal';
import { T } from '../e2ee/texts';
import { localDateTimeToIso } from './format';
import { type Errors, NO_ERRORS } from './message-form-errors';
import { toRuleInput } from './rules-editor';
import type { MessageFields } from './use-message-fields';
import { blobToBase64 } from './voice-recorder';

/** What the create form holds when it is sent: the fields, the files and the encryption tick. */
export interface MessageFormValues extends MessageFields {
  files: PickedFile[];
  useE2ee: boolean;
}

type Keys = Pick<KeysApi, 'whoami' | 'mine' | 'publicKeyOf'>;

/** Stops an E2EE submission before anything is sent, with the message to show. */
export class E2eeRefusal extends Error {
  constructor(readonly errors: Errors) {
    super('refused');
  }
}

/** The recipient's public key, or a refusal placed under the recipient field. */
async function recipientKeyOf(keys: Keys, recipient: string) {
  let found: Awaited<ReturnType<Keys['publicKeyOf']>>;
  try {
    found = await keys.publicKeyOf(recipient.trim());
  } catch (error) {
    const issues = readApiError(error).fieldIssues;
    if (issues) throw new E2eeRefusal({ ...NO_ERRORS, fields: { recipient_user_id: issues[0]!.msg } });
    throw error;
  }
  if (!found) throw new E2eeRefusal({ ...NO_ERRORS, fields: { recipient_user_id: T.recipientNoKeys } });
  return found;
}

/**
 * The create call's input: the plain message, or the sealed one (content '' and the envelope, the recording
 * sealed too; files hold the message back until they are uploaded). Rejects with an E2eeRefusal, placed under
 * its field, when the sender or the recipient has no keys or sealing fails.
 */
export async function buildMessageInput(
  { content, recipient, method, deliverAt, rules, recording, files, useE2ee }: MessageFormValues,
  keys: Keys | undefined,
): Promise<TCreateMessageInput> {
  const deliver_at = localDateTimeToIso(deliverAt);
  const common = {
    delivery_method: method,
    rules: rules.map(toRuleInput),
    consent: true as const,
    ...(deliver_at ? { deliver_at } : {}),
  };
  if (!useE2ee) {
    return {
      recipient_user_id: recipient,
      content,
      use_e2ee: false,
      ...common,
      ...(recording ? { audio_base64: await blobToBase64(recording.blob) } : {}),
    };
  }
  if (!keys) throw new E2eeRefusal({ ...NO_ERRORS, fields: { use_e2ee: T.senderNoKeys } });
  const [me, mine] = await Promise.all([keys.whoami(), keys.mine()]);
  if (!mine) throw new E2eeRefusal({ ...NO_ERRORS, fields: { use_e2ee: T.senderNoKeys } });
  const to = await recipientKeyOf(keys, recipient);
  let sealed: Awaited<ReturnType<typeof sealNewMessage>>;
  try {
    sealed = await sealNewMessage({
      text: content,
      recording: recording ? { bytes: new Uint8Array(await recording.blob.arrayBuffer()), type: recording.blob.type || 'audio/webm' } : null,
      attachments: files.map((f) => ({ file: f.encrypted, name: f.name, type: f.type, size: f.size })),
      readers: readersFor(to, { id: me.id, publicKey: mine.public_key }),
    });
  } catch (error) {
    console.error('Sealing failed', error);
    throw new E2eeRefusal({ ...NO_ERRORS, form: [T.sealFailed] });
  }
  return {
    recipient_user_id: to.user_id,
    content: '',
    content_encrypted: sealed.contentEncrypted,
    use_e2ee: true,
    ...common,
    ...(files.length ? { deliver_at: deliverAtWithFiles(deliver_at) } : {}),
    ...(sealed.audioBase64 ? { audio_base64: sealed.audioBase64 } : {}),
  };
}

/**
 * `build`, but a form sent again unchanged (every value the same, by identity) gets the input built for its last
 * try again: an encrypted message is then not sealed anew (new keys and nonces each time), so its retry is the
 * same input and keeps its idempotency key (lib/create-retry-keys.ts; docs/decisions/create-retries.md). A
 * build that failed is not kept.
 */
export function reusingLastInput(build: (values: MessageFormValues) => Promise<TCreateMessageInput>) {
  let last: { values: MessageFormValues; input: Promise<TCreateMessageInput> } | null = null;
  const same = (a: MessageFormValues, b: MessageFormValues) =>
    Object.keys({ ...a, ...b }).every((k) => Object.is(a[k as keyof MessageFormValues], b[k as keyof MessageFormValues]));
  return (values: MessageFormValues) => {
    if (last && same(last.values, values)) return last.input;
    const entry = { values, input: build(values) };
    last = entry;
    entry.input.catch(() => {
      if (last === entry) last = null;
    });
    return entry.input;
  };
}
