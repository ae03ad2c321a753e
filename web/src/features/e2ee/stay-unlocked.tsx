import { useEffect } from 'react';
import { Button } from '../../components/button';
import { toast } from '../../components/toast';
import { formatDateTimeWithZone } from '../../lib/format-time';
import { deviceUnlock as appDeviceUnlock, type DeviceUnlock } from './device-unlock';
import { useE2eeState, useE2eeStore } from './key-store';
import { T } from './texts';

/** Longest a browser timer can wait (2^31 - 1 ms, about 24.8 days); longer waits are chained. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * On every /app page: after a reload, takes back a key kept on this device (when the person chose to
 * stay unlocked and the time has not run out), and locks again when the chosen time comes.
 */
export function useStayUnlocked(userId: string | undefined, device: DeviceUnlock = appDeviceUnlock) {
  const store = useE2eeStore();
  const { keys } = useE2eeState();

  useEffect(() => {
    if (!userId || store.get().keys) return;
    let live = true;
    void device.restore(userId).then((kept) => {
      if (live && kept && !store.get().keys) store.setKeys({ userId, privateKey: kept.privateKey, stayUnlockedUntil: kept.expiresAt });
    });
    return () => {
      live = false;
    };
  }, [userId, store, device]);

  const until = keys?.stayUnlockedUntil;
  useEffect(() => {
    if (until === undefined) return;
    let id: ReturnType<typeof setTimeout>;
    const arm = () => {
      const wait = until - Date.now();
      if (wait <= 0) {
        store.lock();
        void device.forget();
        return;
      }
      id = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
    };
    arm();
    return () => clearTimeout(id);
  }, [until, store, device]);
}

/** Shown while a key is kept on this device: until when, and a way to end it now. */
export function LockNowButton({ device = appDeviceUnlock }: { device?: DeviceUnlock }) {
  const store = useE2eeStore();
  const { keys } = useE2eeState();
  if (keys?.stayUnlockedUntil === undefined) return null;
  const until = formatDateTimeWithZone(keys.stayUnlockedUntil);
  return (
    <Button
      variant="ghost"
      className="lock-now"
      title={`${T.unlockedUntil} ${until}`}
      onClick={async () => {
        store.lock();
        await device.forget();
        toast.success(T.locked);
      }}
    >
      {T.lockNow}
      <span className="visually-hidden">
        : {T.unlockedUntil} {until}
      </span>
    </Button>
  );
}
