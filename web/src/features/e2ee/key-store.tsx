/*
 * The unwrapped private key lives here, in this tab's memory: never in localStorage or sessionStorage,
 * never sent anywhere. A reload, a sign-out or a 401 drops it; pages that need it then show the unlock
 * prompt — unless the person chose to stay unlocked on this device (device-unlock.ts), which restores it
 * after a reload until the chosen time. The recovery key of a new bundle waits here until its modal is closed.
 */
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';

export interface UnlockedKeys {
  userId: string;
  /** Non-extractable ECDH P-256 private key. */
  privateKey: CryptoKey;
  /** When "stay unlocked on this device" was chosen: until when (epoch ms). Absent: this tab only. */
  stayUnlockedUntil?: number;
}

export interface PendingRecoveryKey {
  email: string;
  recoveryKey: string;
  /** The `ct` of its wrap: names this key when the owner says it is saved (POST /api/keys/me/recovery/saved). */
  recoveryCt: string;
  /** It replaces an earlier key that was never said to be saved (and no longer works). */
  replacesUnsaved?: boolean;
  createdAt: Date;
}

export interface E2eeState {
  keys: UnlockedKeys | null;
  pendingRecovery: PendingRecoveryKey | null;
}

export interface E2eeStore {
  get(): E2eeState;
  subscribe(listener: () => void): () => void;
  setKeys(keys: UnlockedKeys): void;
  /** "Lock now" or the chosen time ran out: the key goes, a pending recovery key stays. */
  lock(): void;
  showRecoveryKey(pending: Omit<PendingRecoveryKey, 'createdAt'> & { createdAt?: Date }): void;
  clearRecoveryKey(): void;
  /** Sign-out: forget everything. */
  reset(): void;
}

const EMPTY: E2eeState = { keys: null, pendingRecovery: null };

export function createE2eeStore(): E2eeStore {
  let state: E2eeState = EMPTY;
  const listeners = new Set<() => void>();
  const set = (next: E2eeState) => {
    state = next;
    for (const l of listeners) l();
  };
  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setKeys: (keys) => set({ ...state, keys }),
    lock: () => set({ ...state, keys: null }),
    showRecoveryKey: ({ createdAt = new Date(), ...pending }) => set({ ...state, pendingRecovery: { ...pending, createdAt } }),
    clearRecoveryKey: () => set({ ...state, pendingRecovery: null }),
    reset: () => set(EMPTY),
  };
}

/** The app's one store (module scope = this tab, until reload). Tests pass their own through the provider. */
export const e2eeStore = createE2eeStore();

const StoreContext = createContext<E2eeStore>(e2eeStore);

export function E2eeStoreProvider({ store, children }: { store: E2eeStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useE2eeStore(): E2eeStore {
  return useContext(StoreContext);
}

export function useE2eeState(): E2eeState {
  const store = useE2eeStore();
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** The private key for `userId`, when this tab has it unlocked (a key of another account never counts). */
export function useUnlockedKey(userId: string | undefined): CryptoKey | null {
  const { keys } = useE2eeState();
  return keys && userId && keys.userId.toLowerCase() === userId.toLowerCase() ? keys.privateKey : null;
}
