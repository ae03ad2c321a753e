import type { TNotifyPreferences } from '@afterword/worker/contracts/notify';
import type { TProfileUpdate } from '@afterword/worker/contracts/profile';
import { toast, toastApiError } from '../../components/toast';
import { trpc } from '../../lib/trpc';

const ok = () => true;
const no = () => false;

export function usePreferenceActions() {
  const utils = trpc.useUtils();
  const save = trpc.notify.setPreferences.useMutation({
    onSuccess: async () => {
      toast.success('Preferences saved');
      await utils.notify.preferences.invalidate();
    },
    onError: toastApiError('Could not save your preferences. Please try again.'),
  });
  return { save: (p: TNotifyPreferences) => save.mutateAsync(p).then(ok, no) };
}

export function useProfileActions() {
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.profile.get.invalidate(), utils.auth.me.invalidate()]);
  const update = trpc.profile.update.useMutation({
    onSuccess: async () => {
      toast.success('Profile saved');
      await refresh();
    },
    onError: toastApiError('Could not save your profile. Please try again.'),
  });
  const start = trpc.profile.startPhoneVerification.useMutation({
    onSuccess: async () => {
      toast.success('Code sent');
      await refresh();
    },
    onError: toastApiError('Could not send a code. Please try again.'),
  });
  const verify = trpc.profile.verifyPhone.useMutation({
    onSuccess: async () => {
      toast.success('Phone number verified');
      await refresh();
    },
    onError: toastApiError('That code did not work. Please try again.'),
  });
  const remove = trpc.profile.removePhone.useMutation({
    onSuccess: async () => {
      toast.success('Phone number removed');
      await refresh();
    },
    onError: toastApiError('Could not remove the phone number. Please try again.'),
  });
  return {
    update: (u: TProfileUpdate) => update.mutateAsync(u).then(ok, no),
    startPhone: (phone: string) => start.mutateAsync({ phone }).then(ok, no),
    verifyPhone: (code: string) => verify.mutateAsync({ code }).then(ok, no),
    removePhone: () => remove.mutateAsync().then(ok, no),
    phonePending: start.isPending || verify.isPending || remove.isPending,
  };
}
