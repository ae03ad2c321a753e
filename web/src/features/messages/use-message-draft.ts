import { useEffect, useRef, useState } from 'react';
import { isEmptyDraft, type DraftStore, type MessageDraftFields } from './message-draft';
import type { RuleDraft } from './rules-editor';

export const DRAFT_TEXTS = {
  restored: (when: string) => `Draft restored from ${when}. A recording and chosen files are not kept in a draft: add them again.`,
  discard: 'Discard draft',
};

/** How long typing may pause before the draft is written (each write seals the whole draft again). */
const SAVE_AFTER_MS = 400;

interface FormFields extends Omit<MessageDraftFields, 'rules'> {
  rules: RuleDraft[];
}

/**
 * The create form's draft: restored once when the form opens (through `restore`, only into an empty form),
 * written as the person types, dropped when the message is created (`sent`) or discarded. Nothing is written
 * before the restore has run, so an empty form never overwrites a draft that is still loading.
 */
export function useMessageDraft(drafts: { store: DraftStore; userId: string } | undefined, fields: FormFields, restore: (draft: MessageDraftFields) => void) {
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  // The account whose draft has been looked for: until then nothing is written (the account may still be loading).
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const done = useRef(false);
  // Writes run one after another, and dropping waits for the one in flight: a write that finished after
  // the drop would bring back the draft of a message already sent.
  const writes = useRef<Promise<void>>(Promise.resolve());
  const restoreRef = useRef(restore);
  restoreRef.current = restore;
  // What the form holds now: a draft that arrives after the person started typing does not overwrite it.
  const fieldsRef = useRef(fields);
  fieldsRef.current = fields;
  const store = drafts?.store;
  const userId = drafts?.userId;
  const ready = userId !== undefined && loadedFor === userId;

  useEffect(() => {
    if (!store || !userId) return;
    let live = true;
    void store.load(userId).then(
      (found) => {
        if (!live) return;
        if (found && isEmptyDraft(fieldsRef.current)) {
          restoreRef.current(found);
          setRestoredAt(found.savedAt);
        }
        setLoadedFor(userId);
      },
      () => live && setLoadedFor(userId),
    );
    return () => {
      live = false;
    };
  }, [store, userId]);

  const { content, recipient, method, deliverAt, rules } = fields;
  useEffect(() => {
    if (!store || !userId || !ready || done.current) return;
    const timer = setTimeout(() => {
      const draft = { content, recipient, method, deliverAt, rules: rules.map(({ key: _key, ...rule }) => rule) };
      writes.current = writes.current.then(() => (done.current ? undefined : store.save(userId, draft))).catch(() => undefined);
    }, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [store, userId, ready, content, recipient, method, deliverAt, rules]);

  return {
    restoredAt,
    /** The message was created: the draft goes, and nothing writes it again. */
    sent: async () => {
      done.current = true;
      await writes.current;
      await store?.drop().catch(() => undefined);
    },
    discard: async () => {
      await writes.current;
      await store?.drop().catch(() => undefined);
      setRestoredAt(null);
    },
  };
}
