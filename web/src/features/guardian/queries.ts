import type { TAssignGuardianInput } from '@afterword/worker/contracts/guardian';
import { useState } from 'react';
import { toast, toastApiError } from '../../components/toast';
import { createRetryKeys } from '../../lib/create-retry-keys';
import { trpc } from '../../lib/trpc';
import { formatDateTime } from '../../lib/format-time';
import { T } from './texts';
import type { GuardianAnswer, UpdateGuardianSettings } from './types';

const ok = () => true;
const no = () => false;

/** Assign and revoke guardians; both resolve true once done (an error is already said). */
export function useGuardianActions() {
  const utils = trpc.useUtils();
  // A guardian joining or leaving moves the ladder too (its counts, its timeline).
  const refresh = () => Promise.all([utils.guardian.list.invalidate(), utils.guardian.ladder.invalidate()]);
  const assign = trpc.guardian.assign.useMutation({
    onSuccess: refresh,
    onError: toastApiError('Could not assign the guardian. Please try again.'),
  });
  const revoke = trpc.guardian.revoke.useMutation({
    onSuccess: async () => {
      toast.success('Guardian revoked');
      await refresh();
    },
    onError: toastApiError('Could not revoke the guardian. Please try again.'),
  });
  // Sent again after a failure, the same invitation keeps its key: the server writes it once (lib/create-retry-keys.ts).
  const [keys] = useState(() => createRetryKeys<TAssignGuardianInput>());
  return {
    assign: (input: TAssignGuardianInput) => keys.sending(input, assign.mutateAsync).then(ok, no),
    assignPending: assign.isPending,
    revoke: (id: string) => revoke.mutateAsync({ id }).then(ok, no),
    revokePending: revoke.isPending,
  };
}

/** Save quorum and veto window; resolves true once saved. */
export function useSettingsActions() {
  const utils = trpc.useUtils();
  const update = trpc.guardian.updateSettings.useMutation({
    onSuccess: async (saved) => {
      toast.success(T.settingsSaved);
      utils.guardian.settings.setData(undefined, saved);
      // The ladder shows the settings and records the change as a step.
      await utils.guardian.ladder.invalidate();
    },
    onError: toastApiError(T.settingsFailed),
  });
  return { save: (input: UpdateGuardianSettings) => update.mutateAsync(input).then(ok, no), pending: update.isPending };
}

/** The guardian's side: answer "Have you heard from them?" and resign; both resolve true once recorded. */
export function useGuardianAnswers() {
  const utils = trpc.useUtils();
  const refresh = () => utils.guardian.owners.invalidate();
  const answer = trpc.guardian.answer.useMutation({
    onSuccess: async (result) => {
      const said =
        result.recorded === 'guardian_fine'
          ? T.fineRecorded
          : result.recorded === 'hold' && result.hold_until
            ? T.holdRecorded(formatDateTime(result.hold_until))
            : result.recorded === 'already_reported'
              ? T.alreadyReported
              : T.deathReported;
      toast.success(said);
      await refresh();
    },
    onError: toastApiError(T.answerFailed),
  });
  const resign = trpc.guardian.resign.useMutation({
    onSuccess: async () => {
      toast.success(T.resigned);
      await refresh();
    },
    onError: toastApiError(T.resignFailed),
  });
  return {
    answer: (id: string, given: GuardianAnswer) => answer.mutateAsync({ id, ...given }).then(ok, no),
    answerPending: answer.isPending,
    resign: (id: string) => resign.mutateAsync({ id }).then(ok, no),
    resignPending: resign.isPending,
  };
}
