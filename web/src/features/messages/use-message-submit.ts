import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { useState, type FormEvent } from 'react';
import { toast } from '../../components/toast';
import { useSingleFlight } from '../../lib/use-single-flight';
import type { PickedFile } from '../e2ee/attachment-picker';
import { E2EE_SAVED_TOAST } from '../e2ee/texts';
import { type Errors, NO_ERRORS, placeServerErrors } from './message-form-errors';
import { E2eeRefusal } from './message-input';

export const CREATE_SUCCESS_TOAST = 'Message queued';
export const CREATE_FAILURE_TOAST = 'Failed to create message';

interface MessageSubmitDeps {
  /** The create call's input from what the form holds now (rejects with an E2eeRefusal). */
  buildInput: () => Promise<TCreateMessageInput>;
  /** Rejects with the server's error on failure. */
  create: (input: TCreateMessageInput) => Promise<{ id: string }>;
  onCreated: (message: { id: string }) => void;
  draft: { sent: () => Promise<void> };
  uploads: { files: PickedFile[]; uploadAll: (messageId: string, list: PickedFile[]) => Promise<void> };
}

/**
 * Sends the create form once: the draft goes as soon as the message exists, then `onCreated` opens it, unless
 * it is encrypted with files: then it stays `created` on the page while they upload. A refusal or a failure
 * leaves the form as it was, with the reasons in `errors`.
 */
export function useMessageSubmit({ buildInput, create, onCreated, draft, uploads }: MessageSubmitDeps) {
  const [created, setCreated] = useState<{ id: string } | null>(null);
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const { pending, run, isBusy } = useSingleFlight();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy() || created) return;
    await run(async () => {
      setErrors(NO_ERRORS);
      try {
        const input = await buildInput();
        const message = await create(input);
        await draft.sent();
        toast.success(input.use_e2ee ? E2EE_SAVED_TOAST : CREATE_SUCCESS_TOAST);
        const toUpload = input.use_e2ee ? uploads.files : [];
        if (!toUpload.length) {
          onCreated(message);
          return;
        }
        setCreated(message);
        await uploads.uploadAll(message.id, toUpload);
      } catch (error) {
        toast.error(CREATE_FAILURE_TOAST);
        setErrors(error instanceof E2eeRefusal ? error.errors : placeServerErrors(error));
      }
    });
  }

  return { submit, pending, created, errors };
}
