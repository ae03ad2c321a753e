import type { IdbRecord } from '../lib/idb-record';

/** IndexedDB's part in memory: one record, kept as the same objects (a CryptoKey stays a CryptoKey). */
export function memoryRecord<T>() {
  let record: T | null = null;
  const backend: IdbRecord<T> = {
    read: async () => record,
    write: async (r) => {
      record = r;
    },
    remove: async () => {
      record = null;
    },
  };
  return { backend, stored: () => record };
}
