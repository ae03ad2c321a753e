import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/skeleton';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { currentSubscription, pushSupported, PushPermissionError, subscribeThisDevice } from './push';

/** This browser's own subscription endpoint (null when it has none); only this tab's buttons change it. */
const THIS_DEVICE_KEY = ['push', 'this-device-endpoint'] as const;

/**
 * Push on this device. Nothing is registered until the user asks: 'Enable push on this device' asks
 * for permission, registers /sw.js, subscribes and sends the subscription; 'Disable' undoes both sides.
 */
export function PushSection() {
  const utils = trpc.useUtils();
  const list = trpc.notify.pushSubscriptions.useQuery();
  const subscribe = trpc.notify.subscribePush.useMutation();
  const unsubscribe = trpc.notify.unsubscribePush.useMutation();
  const queryClient = useQueryClient();
  const [supported] = useState(pushSupported);
  const thisDevice = useQuery({
    queryKey: THIS_DEVICE_KEY,
    // A browser that cannot say counts as not subscribed, as before: the button then offers to enable.
    queryFn: () =>
      currentSubscription().then(
        (sub) => sub?.endpoint ?? null,
        () => null,
      ),
    enabled: supported,
    // Read afresh each time the section appears (the browser's settings may have changed meanwhile),
    // but not on focus: the permission prompt's focus change would race an enable in progress.
    staleTime: Infinity,
    refetchOnMount: 'always',
    retry: false,
  });
  const setEndpoint = (value: string | null) => queryClient.setQueryData(THIS_DEVICE_KEY, value);
  const [blocked, setBlocked] = useState(() => supported && Notification.permission === 'denied');
  const [busy, setBusy] = useState(false);

  if (!supported) return <p className="muted">This browser cannot receive push notifications.</p>;
  // This device's subscription list: without it, "on" or "off" would be a guess.
  if (list.isError) return <ErrorState title="Your push devices could not be loaded." read={list} />;
  const endpoint = thisDevice.data;
  if (endpoint === undefined || list.isPending) return <Skeleton lines={2} label="Checking push on this device" />;

  // The server lists subscriptions by endpoint origin only, so "on" is this browser's own subscription.
  const on = endpoint !== null;
  const total = list.data?.length ?? 0;

  async function enable() {
    setBusy(true);
    try {
      const { public_key } = await utils.notify.vapidKey.fetch();
      const sub = await subscribeThisDevice(public_key);
      await subscribe.mutateAsync(sub.toJSON() as Parameters<typeof subscribe.mutateAsync>[0]);
      setEndpoint(sub.endpoint);
      setBlocked(false);
      await utils.notify.pushSubscriptions.invalidate();
      toast.success('Push is on for this device');
    } catch (error) {
      if (error instanceof PushPermissionError) {
        setBlocked(error.permission === 'denied');
        toast.error('Notifications are not allowed for this site, so push cannot be turned on.');
      } else {
        console.error('Could not enable push', error);
        toast.error(readApiError(error).detail ?? 'Could not enable push on this device. Please try again.');
      }
    } finally {
      setBusy(false);
    }
  }

  async function disable() {
    setBusy(true);
    try {
      const sub = await currentSubscription();
      const target = sub?.endpoint ?? endpoint;
      if (sub) await sub.unsubscribe();
      if (target) await unsubscribe.mutateAsync({ endpoint: target });
      setEndpoint(null);
      await utils.notify.pushSubscriptions.invalidate();
      toast.success('Push is off for this device');
    } catch (error) {
      console.error('Could not disable push', error);
      toast.error(readApiError(error).detail ?? 'Could not disable push on this device. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="push">
      <p className="server-status__line">
        This device: <Badge tone={on ? 'active' : 'neutral'}>{on ? 'On' : 'Off'}</Badge>
      </p>
      {total > 0 ? (
        <p className="muted">
          {total === 1 ? '1 browser receives' : `${total} browsers receive`} your push notifications
          {on ? ', this one included' : ''}.
        </p>
      ) : null}
      {blocked && !on ? <p className="note">Notifications are blocked for this site. Allow them in your browser's site settings, then try again.</p> : null}
      {on ? (
        <Button variant="secondary" onClick={() => void disable()} disabled={busy}>
          Disable<span className="visually-hidden"> push on this device</span>
        </Button>
      ) : (
        <Button onClick={() => void enable()} disabled={busy}>
          Enable push on this device
        </Button>
      )}
    </div>
  );
}
