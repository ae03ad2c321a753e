/*
 * "Stay unlocked on this device" (docs/decisions/persistent-unlock.md). The private key's PKCS#8 bytes
 * are sealed with a device key: a non-extractable AES-GCM CryptoKey made here and kept, as the object it
 * is, in IndexedDB next to the ciphertext and an expiry. Script on this origin can ask the browser to
 * decrypt with it but can never read it out; the stored record alone (a disk copy) carries no key bytes.
 * A record past its expiry, of another account, or that does not open is deleted on read. Default off.
 */
import { aesGcmDecrypt, aesGcmEncrypt, importPrivatePkcs8, utf8Encode } from '../../crypto';
import { type IdbRecord, idbRecord } from '../../lib/idb-record';

/** What is stored: one record per browser profile (only one account is unlocked at a time). */
export interface DeviceUnlockRecord {
  userId: string;
  deviceKey: CryptoKey;
  iv: Uint8Array;
  ct: Uint8Array;
  expiresAt: number;
}

/** Where the record lives: IndexedDB in the app, memory in unit tests. */
export type DeviceUnlockBackend = IdbRecord<DeviceUnlockRecord>;

export interface DeviceUnlock {
  /** Keeps `pkcs8` (the unwrapped private key) for `userId` until `expiresAt` (epoch ms). */
  remember(userId: string, pkcs8: Uint8Array, expiresAt: number): Promise<void>;
  /** The private key (non-extractable) and its expiry, when a live record of this user opens; else null. */
  restore(userId: string): Promise<{ privateKey: CryptoKey; expiresAt: number } | null>;
  /** "Lock now", sign-out, expiry: the record and its device key are gone. */
  forget(): Promise<void>;
}

/** The choices offered; the first is the default once the box is ticked. */
export const STAY_UNLOCKED_CHOICES = [
  { label: '1 hour', ms: 3_600_000 },
  { label: '8 hours', ms: 8 * 3_600_000 },
  { label: '1 day', ms: 86_400_000 },
  { label: '7 days', ms: 7 * 86_400_000 },
  { label: '30 days', ms: 30 * 86_400_000 },
] as const;

/** Binds the ciphertext to its purpose and account, so a record cannot be replayed for another user. */
const aad = (userId: string) => utf8Encode(`afterword/device-unlock/v1/${userId.toLowerCase()}`);

export function createDeviceUnlock(backend: DeviceUnlockBackend, now: () => number = Date.now): DeviceUnlock {
  return {
    async remember(userId, pkcs8, expiresAt) {
      const deviceKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      const { iv, ciphertext } = await aesGcmEncrypt(deviceKey, pkcs8, aad(userId));
      await backend.write({ userId: userId.toLowerCase(), deviceKey, iv, ct: ciphertext, expiresAt });
    },
    async restore(userId) {
      const record = await backend.read().catch(() => null);
      if (!record) return null;
      if (record.userId !== userId.toLowerCase() || !(record.expiresAt > now())) {
        await backend.remove();
        return null;
      }
      try {
        const pkcs8 = await aesGcmDecrypt(record.deviceKey, record.iv, record.ct, aad(userId));
        return { privateKey: await importPrivatePkcs8(pkcs8, false), expiresAt: record.expiresAt };
      } catch {
        await backend.remove();
        return null;
      }
    },
    forget: () => backend.remove(),
  };
}

/** The browser's IndexedDB (structured clone keeps a CryptoKey non-extractable). No IndexedDB: nothing kept. */
export const indexedDbBackend: DeviceUnlockBackend = idbRecord<DeviceUnlockRecord>('afterword-e2ee', 'device-unlock', 'current');

/** The app's one device unlock. */
export const deviceUnlock = createDeviceUnlock(indexedDbBackend);
