import type { TCreateMessageInput } from '@afterword/worker/contracts/messages';
import { useState } from 'react';
import { toast, toastApiError } from '../../components/toast';
import { trpc } from '../../lib/trpc';
import { createRetryKeys } from '../../lib/create-retry-keys';

/** While a message may still change on its own (a rule fires, a channel answers), re-read it this often. */
export const MESSAGE_REFRESH_MS = 5_000;
/** Lists and the inbox: other devices, rules and deliveries change them too. */
export const MESSAGE_LIST_REFRESH_MS = 30_000;

/** Everything a message change can move. */
export function useRefreshMessages() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.message.list.invalidate(),
      utils.message.pending.invalidate(),
      utils.message.byId.invalidate(),
      utils.message.inbox.invalidate(),
      utils.message.unreadCount.invalidate(),
      utils.message.logs.invalidate(),
      utils.activity.recent.invalidate(),
    ]);
}

/**
 * The create call itself; the form raises the toasts of docs/product.md "Messages and release rules" and places
 * the server's field errors.
 */
export function useCreateMessage() {
  const refresh = useRefreshMessages();
  const mutation = trpc.message.create.useMutation({ onSuccess: () => void refresh() });
  // Sent again after a failure, the same message keeps its key: the server writes it once (lib/create-retry-keys.ts).
  const [keys] = useState(() => createRetryKeys<TCreateMessageInput>());
  return (input: TCreateMessageInput) => keys.sending(input, mutation.mutateAsync);
}

/** Release now and Cancel message (sender only). Each resolves true on success. */
export function useMessageActions() {
  const refresh = useRefreshMessages();
  const release = trpc.message.deliver.useMutation({
    onSuccess: async () => {
      toast.success('Message released');
      await refresh();
    },
    onError: toastApiError('Could not release the message. Please try again.'),
  });
  const cancel = trpc.message.cancel.useMutation({
    onSuccess: async () => {
      toast.success('Message cancelled');
      await refresh();
    },
    onError: toastApiError('Could not cancel the message. Please try again.'),
  });
  return {
    release: (id: string) =>
      release.mutateAsync({ id }).then(
        () => true,
        () => false,
      ),
    cancel: (id: string) =>
      cancel.mutateAsync({ id }).then(
        () => true,
        () => false,
      ),
    pending: release.isPending || cancel.isPending,
  };
}

/** The recipient opened a message: mark it read, then the Inbox and its sidebar count follow. */
export function useMarkRead() {
  const utils = trpc.useUtils();
  const mutation = trpc.message.markRead.useMutation({
    onSuccess: (received) =>
      Promise.all([utils.message.unreadCount.invalidate(), utils.message.inbox.invalidate(), utils.message.byId.invalidate({ id: received.id })]),
  });
  return (id: string) => mutation.mutate({ id });
}
