import { toast, toastApiError } from '../../components/toast';
import { trpc } from '../../lib/trpc';
import { createPasskeyCredential, PasskeyCancelled, getPasskeyAssertion } from './passkey-browser';

const cancelledOr = (fallback: string) => {
  const report = toastApiError(fallback);
  return (err: unknown) => {
    if (err instanceof PasskeyCancelled) toast('Passkey cancelled');
    else report(err);
  };
};

/** Notifications → Passkeys: the list, making one (options → the device → keep) and removing one. */
export function usePasskeys() {
  const utils = trpc.useUtils();
  const list = trpc.passkeys.list.useQuery();
  const options = trpc.passkeys.registrationOptions.useMutation();
  const register = trpc.passkeys.register.useMutation();
  const remove = trpc.passkeys.remove.useMutation();
  return {
    list,
    async make(name: string): Promise<boolean> {
      try {
        const start = await options.mutateAsync();
        const response = await createPasskeyCredential(start.options);
        await register.mutateAsync({ challenge_id: start.challenge_id, response, name });
        toast.success('Passkey added');
        await utils.passkeys.list.invalidate();
        return true;
      } catch (err) {
        cancelledOr('Could not add the passkey. Please try again.')(err);
        return false;
      }
    },
    async remove(id: string): Promise<boolean> {
      try {
        await remove.mutateAsync({ id });
        toast.success('Passkey removed');
        await utils.passkeys.list.invalidate();
        return true;
      } catch (err) {
        toastApiError('Could not remove the passkey. Please try again.')(err);
        return false;
      }
    },
  };
}

/** The dashboard's "Check in with a passkey": every canary, proven by the person's own passkey. */
export function usePasskeyCheckIn(onDone: () => Promise<unknown>) {
  const options = trpc.passkeys.checkInOptions.useMutation();
  const checkIn = trpc.passkeys.checkIn.useMutation();
  return {
    pending: options.isPending || checkIn.isPending,
    async run() {
      try {
        const start = await options.mutateAsync();
        const response = await getPasskeyAssertion(start.options);
        await checkIn.mutateAsync({ challenge_id: start.challenge_id, response });
        toast.success('Check-in received');
        await onDone();
      } catch (err) {
        cancelledOr('Check-in failed. Please try again.')(err);
      }
    },
  };
}
