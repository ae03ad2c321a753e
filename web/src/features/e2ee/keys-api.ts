/*
 * The key lifecycle (docs/security/e2ee.md §12) on top of a small API surface, so components and tests
 * can pass a fake. The crypto itself is web/src/crypto; this file only decides when to call it.
 */
import type { TReplaceRecoveryKey } from '@afterword/worker/contracts/auth';
import type { KeyBundleView, PublicKeyView } from '@afterword/worker/contracts/e2ee';
import type { TKeyBundle, TPublicKeyJwk } from '@afterword/worker/contracts/e2ee';
import { createKeyBundle, createRecoveryKey, importPrivatePkcs8, unwrapPrivateKey, unwrapPrivateKeyPkcs8 } from '../../crypto';
import { readApiError } from '../../lib/api-error';
import type { TrpcClient } from '../../lib/trpc';
import type { DeviceUnlock } from './device-unlock';
import type { E2eeStore } from './key-store';

export interface KeysApi {
  /** The signed-in user. */
  whoami(): Promise<{ id: string; email: string }>;
  /** Their bundle, or null when they have none yet. */
  mine(): Promise<KeyBundleView | null>;
  create(bundle: TKeyBundle): Promise<void>;
  /** Someone's public key, or null when they have no keys (or do not exist). */
  publicKeyOf(userId: string): Promise<PublicKeyView | null>;
  /** Stores a new recovery wrap in place of the old one (the password proves it is the owner). */
  replaceRecovery(input: TReplaceRecoveryKey): Promise<KeyBundleView>;
  /** The owner saved the recovery key whose wrap has this `ct`. */
  recoverySaved(recoveryCt: string): Promise<void>;
}

/** Thrown by unlock when the account has no bundle at all. */
export class NoKeysError extends Error {
  override readonly name = 'NoKeysError';
}

const nullOn404 = <T>(p: Promise<T>): Promise<T | null> =>
  p.catch((error: unknown) => {
    if (readApiError(error).status === 404) return null;
    throw error;
  });

export function keysApiFromClient(client: TrpcClient): KeysApi {
  return {
    whoami: () => client.auth.me.query(),
    mine: () => nullOn404(client.keys.me.query()),
    create: async (bundle) => {
      await client.keys.create.mutate(bundle);
    },
    publicKeyOf: async (userId) => {
      const found = await client.keys.lookup.query({ user_id: userId });
      return found.public_key ? { user_id: found.user_id, public_key: found.public_key } : null;
    },
    replaceRecovery: (input) => client.auth.replaceRecoveryKey.mutate(input),
    recoverySaved: async (recoveryCt) => {
      await client.keys.recoverySaved.mutate({ recovery_ct: recoveryCt });
    },
  };
}

/**
 * A recovery key the owner never said they saved is as good as lost (the tab that showed it may have
 * closed). Whenever the password is in hand and the bundle's key is not saved, a new one replaces it and
 * is queued for the show-once dialog, which says the earlier one no longer works.
 */
async function renewUnsavedRecoveryKey(api: KeysApi, store: E2eeStore, email: string, bundle: KeyBundleView, password: string): Promise<void> {
  if (bundle.recovery_saved_at !== null || store.get().pendingRecovery) return;
  await replaceRecoveryKey(api, store, email, bundle, password, { replacesUnsaved: true });
}

/** Settings → "Make a new recovery key": the old one stops working; the new one is shown once. */
export async function makeNewRecoveryKey(api: KeysApi, store: E2eeStore, password: string): Promise<void> {
  const [me, bundle] = await Promise.all([api.whoami(), api.mine()]);
  if (!bundle) throw new NoKeysError('no key bundle');
  await replaceRecoveryKey(api, store, me.email, bundle, password);
}

/** A new recovery key for the bundle's key pair, stored with the password, then queued for the show-once dialog. */
async function replaceRecoveryKey(
  api: KeysApi,
  store: E2eeStore,
  email: string,
  bundle: KeyBundleView,
  password: string,
  shown: { replacesUnsaved?: true } = {},
): Promise<void> {
  const fresh = await createRecoveryKey(bundle.password_wrap, password);
  await api.replaceRecovery({ current_password: password, recovery_wrap: fresh.recoveryWrap });
  store.showRecoveryKey({ email, recoveryKey: fresh.recoveryKey, recoveryCt: fresh.recoveryWrap.ct, ...shown });
}

export type KeySetupOutcome = 'created' | 'unlocked' | 'wrong-password';

/**
 * Right after a password sign-in (the password is in hand only now): unlock the bundle, or make the
 * account's first one and queue its recovery key for the show-once modal. A bundle whose password wrap
 * does not open with this password (it cannot happen through this app) is left alone: the unlock
 * prompt will say so.
 */
export async function setUpKeysAfterSignIn(
  api: KeysApi,
  store: E2eeStore,
  password: string,
  { renewUnsavedRecovery = true }: { renewUnsavedRecovery?: boolean } = {},
): Promise<KeySetupOutcome> {
  const me = await api.whoami();
  let bundle = await api.mine();
  if (!bundle) {
    const fresh = await createKeyBundle(password);
    try {
      await api.create(fresh.bundle);
      store.setKeys({ userId: me.id, privateKey: fresh.privateKey });
      store.showRecoveryKey({ email: me.email, recoveryKey: fresh.recoveryKey, recoveryCt: fresh.bundle.recovery_wrap.ct });
      return 'created';
    } catch (error) {
      // Another tab made them a moment ago: use those.
      if (readApiError(error).status !== 409) throw error;
      bundle = await api.mine();
      if (!bundle) throw error;
    }
  }
  try {
    store.setKeys({ userId: me.id, privateKey: await unwrapPrivateKey(bundle.password_wrap, { password }) });
  } catch (error) {
    if ((error as { code?: string }).code === 'wrong-key') return 'wrong-password';
    throw error;
  }
  if (renewUnsavedRecovery) await renewUnsavedRecoveryKey(api, store, me.email, bundle, password);
  return 'unlocked';
}

/** "Stay unlocked on this device until `until`" (epoch ms), with where to keep it. */
export interface StayUnlocked {
  until: number;
  device: DeviceUnlock;
}

/**
 * The unlock prompt: opens the password wrap locally. WrongKeyError on a wrong password, NoKeysError
 * without a bundle. With `stay`, the opened key is also kept on this device until the chosen time.
 */
export async function unlockWithPassword(api: KeysApi, store: E2eeStore, password: string, stay?: StayUnlocked): Promise<void> {
  const [me, bundle] = await Promise.all([api.whoami(), api.mine()]);
  if (!bundle) throw new NoKeysError('no key bundle');
  const pkcs8 = await unwrapPrivateKeyPkcs8(bundle.password_wrap, { password });
  const privateKey = await importPrivatePkcs8(pkcs8, false);
  if (stay) await stay.device.remember(me.id, pkcs8, stay.until);
  pkcs8.fill(0);
  store.setKeys({ userId: me.id, privateKey, ...(stay ? { stayUnlockedUntil: stay.until } : {}) });
  await renewUnsavedRecoveryKey(api, store, me.email, bundle, password);
}

/** The readers of a new E2EE message: the recipient and the sender (once, if they are the same). */
export function readersFor(recipient: PublicKeyView, sender: { id: string; publicKey: TPublicKeyJwk }) {
  const readers = [{ kid: recipient.user_id.toLowerCase(), publicKey: recipient.public_key }];
  if (sender.id.toLowerCase() !== recipient.user_id.toLowerCase()) readers.push({ kid: sender.id.toLowerCase(), publicKey: sender.publicKey });
  return readers;
}
