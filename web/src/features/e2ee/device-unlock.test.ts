import { describe, expect, it } from 'vitest';
import { exportPrivatePkcs8, exportPublicJwk, generateKeyPair, openMessage, sealMessage } from '../../crypto';
import { memoryRecord } from '../../test-utils/memory-record';
import { createDeviceUnlock, type DeviceUnlockRecord } from './device-unlock';
import { createE2eeStore } from './key-store';
import { unlockWithPassword, type KeysApi } from './keys-api';

const OWNER = '11111111-2222-4333-8444-555555555555';
const OUTSIDER = '7d3f0c2e-4b1a-4c8e-9f6d-2a5b8c1e0f3a';
const HOUR = 3_600_000;

const memoryBackend = () => memoryRecord<DeviceUnlockRecord>();

/** A clock the test moves. */
function clock(start = Date.parse('2026-11-24T09:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function ownerKeys() {
  const pair = await generateKeyPair();
  return { pair, pkcs8: await exportPrivatePkcs8(pair.privateKey), jwk: await exportPublicJwk(pair.publicKey) };
}

/** The restored key opens what was sealed for the owner: it is the same private key. */
async function opens(privateKey: CryptoKey, keys: Awaited<ReturnType<typeof ownerKeys>>) {
  const { envelope } = await sealMessage({ payload: { text: 'only for me' }, readers: [{ kid: OWNER.toLowerCase(), publicKey: keys.jwk }] });
  return (await openMessage(envelope, { kid: OWNER.toLowerCase(), privateKey })).text;
}

describe('staying unlocked on this device', () => {
  it('keeps the key across a reload until the chosen time, as a key nobody can read out', async () => {
    const { backend, stored } = memoryBackend();
    const t = clock();
    const keys = await ownerKeys();
    await createDeviceUnlock(backend, t.now).remember(OWNER, keys.pkcs8, t.now() + HOUR);

    // What sits in storage: a non-extractable device key and a ciphertext, never the key bytes.
    const record = stored()!;
    expect(record.deviceKey.extractable).toBe(false);
    expect(record.deviceKey.algorithm).toMatchObject({ name: 'AES-GCM' });
    expect(Buffer.from(record.ct).includes(Buffer.from(keys.pkcs8))).toBe(false);

    // "After a reload": a new DeviceUnlock on the same storage.
    t.advance(HOUR - 1000);
    const restored = await createDeviceUnlock(backend, t.now).restore(OWNER);
    expect(restored?.expiresAt).toBe(Date.parse('2026-11-24T10:00:00Z'));
    expect(restored!.privateKey.extractable).toBe(false);
    expect(await opens(restored!.privateKey, keys)).toBe('only for me');
  });

  it('forgets the key at the chosen time: past it, nothing comes back and the record is deleted', async () => {
    const { backend, stored } = memoryBackend();
    const t = clock();
    const device = createDeviceUnlock(backend, t.now);
    await device.remember(OWNER, (await ownerKeys()).pkcs8, t.now() + HOUR);
    t.advance(HOUR);
    expect(await device.restore(OWNER)).toBeNull();
    expect(stored()).toBeNull();
  });

  it('"Lock now" (and sign-out) deletes it at once', async () => {
    const { backend, stored } = memoryBackend();
    const t = clock();
    const device = createDeviceUnlock(backend, t.now);
    await device.remember(OWNER, (await ownerKeys()).pkcs8, t.now() + HOUR);
    await device.forget();
    expect(stored()).toBeNull();
    expect(await device.restore(OWNER)).toBeNull();
  });

  it("never hands one account's key to another account signed in on the same browser", async () => {
    const { backend, stored } = memoryBackend();
    const t = clock();
    const device = createDeviceUnlock(backend, t.now);
    await device.remember(OWNER, (await ownerKeys()).pkcs8, t.now() + HOUR);
    expect(await device.restore(OUTSIDER)).toBeNull();
    expect(stored()).toBeNull();
  });

  it('drops a record that was altered instead of failing the page', async () => {
    const { backend, stored } = memoryBackend();
    const t = clock();
    const device = createDeviceUnlock(backend, t.now);
    await device.remember(OWNER, (await ownerKeys()).pkcs8, t.now() + HOUR);
    stored()!.ct[0]! ^= 1;
    expect(await device.restore(OWNER)).toBeNull();
    expect(stored()).toBeNull();
  });

  it('unlocking with the password keeps the key only when asked to, and says until when', async () => {
    const { createKeyBundle } = await import('../../crypto');
    const password = 'Correct-Horse-Battery-42';
    const made = await createKeyBundle(password, { iterations: 100_000 });
    const api: KeysApi = {
      whoami: async () => ({ id: OWNER, email: 'owner@example.test' }),
      mine: async () => ({ ...made.bundle, recovery_saved_at: '2026-01-02T00:00:00.000Z', created_at: '2026-01-01T00:00:00.000Z' }),
      create: async () => undefined,
      publicKeyOf: async () => null,
      replaceRecovery: async () => {
        throw new Error('a saved recovery key is not replaced');
      },
      recoverySaved: async () => undefined,
    };
    const { backend, stored } = memoryBackend();
    const t = clock();
    const device = createDeviceUnlock(backend, t.now);

    const thisTabOnly = createE2eeStore();
    await unlockWithPassword(api, thisTabOnly, password);
    expect(thisTabOnly.get().keys?.stayUnlockedUntil).toBeUndefined();
    expect(stored()).toBeNull();

    const staying = createE2eeStore();
    await unlockWithPassword(api, staying, password, { until: t.now() + 8 * HOUR, device });
    expect(staying.get().keys?.stayUnlockedUntil).toBe(t.now() + 8 * HOUR);
    expect((await device.restore(OWNER))?.expiresAt).toBe(t.now() + 8 * HOUR);

    staying.lock();
    expect(staying.get().keys).toBeNull();
  });
});
