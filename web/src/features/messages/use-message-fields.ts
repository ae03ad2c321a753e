import type { DeliveryMethod } from '@afterword/worker/contracts/messages';
import { useReducer } from 'react';
import type { MessageDraftFields } from './message-draft';
import { newRule, type RuleDraft } from './rules-editor';
import type { Recording } from './voice-recorder';

/** What the person writes into the create form (the encryption tick and the files are kept apart). */
export interface MessageFields {
  content: string;
  recipient: string;
  method: DeliveryMethod;
  /** The datetime-local value ('' for now). */
  deliverAt: string;
  rules: RuleDraft[];
  recording: Recording | null;
}

const EMPTY_FIELDS: MessageFields = { content: '', recipient: '', method: 'email', deliverAt: '', rules: [], recording: null };

/** Merges the changed fields; an edit that changes nothing keeps the same state, so the form does not render again. */
export function messageFieldsReducer(fields: MessageFields, edit: Partial<MessageFields>): MessageFields {
  const changes = (Object.keys(edit) as (keyof MessageFields)[]).some((name) => !Object.is(fields[name], edit[name]));
  return changes ? { ...fields, ...edit } : fields;
}

/** The create form's fields, edited one at a time or filled from a draft. */
export function useMessageFields() {
  const [fields, edit] = useReducer(messageFieldsReducer, EMPTY_FIELDS);
  return {
    fields,
    edit,
    /**
     * Puts a draft's fields into the form (a restored draft, or the empty one on discard). A draft keeps no
     * recording, so the one made stays. The rules get their keys here: a reducer must not hand out keys.
     */
    fill: (draft: MessageDraftFields) =>
      edit({
        content: draft.content,
        recipient: draft.recipient,
        method: draft.method as DeliveryMethod,
        deliverAt: draft.deliverAt,
        rules: draft.rules.map((r) => ({ ...newRule(r.trigger_type), value: r.value, expire: r.expire })),
      }),
  };
}
