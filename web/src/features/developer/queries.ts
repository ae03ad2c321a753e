import { useState } from 'react';
import { toast, toastApiError } from '../../components/toast';
import { createRetryKeys } from '../../lib/create-retry-keys';
import { trpc } from '../../lib/trpc';
import type { CreatedKey, CreatedWebhook, CreateKeyInput, CreateWebhookInput } from './types';

/** Create and revoke keys. `create` resolves the key (its only appearance) or null once the error is said. */
export function useKeyActions() {
  const utils = trpc.useUtils();
  const create = trpc.developer.keys.create.useMutation({
    onSuccess: async () => {
      toast.success('API key created');
      await utils.developer.keys.list.invalidate();
    },
    onError: toastApiError('Could not create the key. Please try again.'),
  });
  const revoke = trpc.developer.keys.revoke.useMutation({
    onSuccess: async () => {
      toast.success('API key revoked');
      await utils.developer.keys.list.invalidate();
    },
    onError: toastApiError('Could not revoke the key. Please try again.'),
  });
  return {
    // The mutation is reset at once, so the key is not kept in the mutation cache either.
    create: (input: CreateKeyInput): Promise<CreatedKey | null> =>
      create.mutateAsync(input).then(
        (key) => {
          create.reset();
          return key;
        },
        () => null,
      ),
    createPending: create.isPending,
    revoke: (id: string) =>
      revoke.mutateAsync({ id }).then(
        () => true,
        () => false,
      ),
    revokePending: revoke.isPending,
  };
}

/** Create, delete and test webhooks. */
export function useWebhookActions() {
  const utils = trpc.useUtils();
  const [testingId, setTestingId] = useState<string | null>(null);
  /** The webhook being deleted: its attempts log stops re-reading, which would answer 404 once it is gone. */
  const [removingId, setRemovingId] = useState<string | null>(null);
  const create = trpc.webhooks.create.useMutation({
    onSuccess: async () => {
      toast.success('Webhook created');
      await utils.webhooks.list.invalidate();
    },
    onError: toastApiError('Could not create the webhook. Please try again.'),
  });
  const remove = trpc.webhooks.remove.useMutation({
    onMutate: async ({ id }) => {
      setRemovingId(id);
      await utils.webhooks.attempts.cancel({ id });
    },
    onSuccess: async () => {
      toast.success('Webhook deleted');
      // Awaited before onSettled lets its log read again: by then the list is re-read and the log is gone with it.
      await utils.webhooks.list.invalidate();
    },
    onError: toastApiError('Could not delete the webhook. Please try again.'),
    onSettled: () => setRemovingId(null),
  });
  const test = trpc.webhooks.test.useMutation({
    onSuccess: async (result, { id }) => {
      if (result.delivered) toast.success('Test event delivered');
      else toast.error(`Test event not delivered: ${result.attempt.error ?? `the endpoint answered ${result.attempt.status_code}`}`);
      await Promise.all([utils.webhooks.attempts.invalidate({ id }), utils.webhooks.list.invalidate()]);
    },
    onError: toastApiError('Could not send the test event. Please try again.'),
    onSettled: () => setTestingId(null),
  });
  // Sent again after a failure, the same endpoint keeps its key: the server writes it once, and answers its secret.
  const [keys] = useState(() => createRetryKeys<CreateWebhookInput>());
  return {
    create: (input: CreateWebhookInput): Promise<CreatedWebhook | null> =>
      keys.sending(input, create.mutateAsync).then(
        (hook) => {
          create.reset();
          return hook;
        },
        () => null,
      ),
    createPending: create.isPending,
    remove: (id: string) =>
      remove.mutateAsync({ id }).then(
        () => true,
        () => false,
      ),
    removePending: remove.isPending,
    removingId,
    test: (id: string) => {
      setTestingId(id);
      return test.mutateAsync({ id }).then(
        () => true,
        () => false,
      );
    },
    testingId,
  };
}
