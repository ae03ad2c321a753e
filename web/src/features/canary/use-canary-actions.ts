import type { TCreateCanaryInput, TUpdateCanaryInput } from '@afterword/worker/contracts/canary';
import { useState } from 'react';
import { toast, toastApiError } from '../../components/toast';
import { createRetryKeys } from '../../lib/create-retry-keys';
import { type FieldIssue, readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { cacheCanaryToken } from './canary-token';
import { simulatedMiss } from './simulated-miss';

/** Server failures show the server's `detail` (e.g. a plan limit naming the plan), else `fallback`. */

/** Everything a canary change can move: status, list, activity, the dead-man deadline, and the guardian ladder (a check-in refutes a report). */
export function useRefreshCanaries() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.canary.status.invalidate(),
      utils.canary.list.invalidate(),
      utils.activity.recent.invalidate(),
      utils.deadman.get.invalidate(),
      utils.guardian.ladder.invalidate(),
    ]);
}

/** docs/product.md "Canaries and check-ins": a session check-in without a token checks in all the user's canaries. */
export function useCheckIn() {
  const refresh = useRefreshCanaries();
  const mutation = trpc.canary.checkIn.useMutation({
    onSuccess: async () => {
      simulatedMiss.clear();
      toast.success('Check-in received');
      await refresh();
    },
    onError: toastApiError('Check-in failed. Please try again.'),
  });
  return { checkIn: () => mutation.mutate({}), pending: mutation.isPending };
}

export function useCreateCanary() {
  const refresh = useRefreshCanaries();
  const mutation = trpc.canary.create.useMutation({
    onSuccess: async (canary) => {
      cacheCanaryToken(canary.token);
      toast.success('Canary created');
      await refresh();
    },
    onError: toastApiError('Could not create the canary. Please try again.'),
  });
  // Sent again after a failure, the same canary keeps its key: the server writes it once (lib/create-retry-keys.ts).
  const [keys] = useState(() => createRetryKeys<TCreateCanaryInput>());
  return {
    /** Resolves true when the canary was created (the form then clears itself). */
    create: (input: TCreateCanaryInput) =>
      keys.sending(input, mutation.mutateAsync).then(
        () => true,
        () => false,
      ),
    pending: mutation.isPending,
  };
}

export function useDeleteCanary() {
  const refresh = useRefreshCanaries();
  const mutation = trpc.canary.delete.useMutation({
    onSuccess: async () => {
      toast.success('Canary deleted');
      await refresh();
    },
    onError: toastApiError('Could not delete the canary. Please try again.'),
  });
  return {
    remove: (id: string) =>
      mutation.mutateAsync({ id }).then(
        () => true,
        () => false,
      ),
    pending: mutation.isPending,
  };
}

/**
 * PATCH /api/canary/{id} over tRPC (`canary.update`), as the create form's `canary.create`: a changed
 * schedule or interval. Problems with a field come back to the form to show under it; anything else (a
 * missed canary: "check in first") is a toast with the server's words.
 */
export function useUpdateCanary() {
  const refresh = useRefreshCanaries();
  const mutation = trpc.canary.update.useMutation({
    onSuccess: async () => {
      toast.success('Schedule saved');
      await refresh();
    },
  });
  return {
    /** Resolves `{ ok: true }` once saved, or the server's field issues (none: it said why in a toast). */
    save: (id: string, input: TUpdateCanaryInput): Promise<{ ok: true } | { ok: false; fieldIssues: FieldIssue[] | null }> =>
      mutation.mutateAsync({ id, ...input }).then(
        () => ({ ok: true }) as const,
        (error: unknown) => {
          const { fieldIssues } = readApiError(error);
          if (!fieldIssues) toastApiError('Could not save the schedule. Please try again.')(error);
          return { ok: false, fieldIssues } as const;
        },
      ),
    pending: mutation.isPending,
  };
}

/** A vacation pause (at most 60 days; the server says why otherwise) and its early end. */
export function usePauseCanary() {
  const refresh = useRefreshCanaries();
  const pause = trpc.canary.pause.useMutation({
    onSuccess: async () => {
      toast.success('Canary paused');
      await refresh();
    },
    onError: toastApiError('Could not pause the canary. Please try again.'),
  });
  const resume = trpc.canary.resume.useMutation({
    onSuccess: async () => {
      toast.success('Pause ended');
      await refresh();
    },
    onError: toastApiError('Could not end the pause. Please try again.'),
  });
  const done = (p: Promise<unknown>) =>
    p.then(
      () => true,
      () => false,
    );
  return {
    pause: (id: string, until: string) => done(pause.mutateAsync({ id, until })),
    resume: (id: string) => done(resume.mutateAsync({ id })),
    pending: pause.isPending || resume.isPending,
  };
}
