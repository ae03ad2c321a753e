/**
 * One record kept in IndexedDB under a fixed key: read, write, remove. Structured clone keeps a
 * CryptoKey as the object it is (a non-extractable key stays non-extractable). Without IndexedDB (some
 * private modes, unit tests without it) nothing is kept and reads find nothing.
 */
export interface IdbRecord<T> {
  read(): Promise<T | null>;
  write(record: T): Promise<void>;
  remove(): Promise<void>;
}

export function idbRecord<T>(dbName: string, storeName: string, key: string): IdbRecord<T> {
  const openDb = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(dbName, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(storeName);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  async function inStore<R>(mode: IDBTransactionMode, op: (store: IDBObjectStore) => IDBRequest): Promise<R> {
    const db = await openDb();
    try {
      return await new Promise<R>((resolve, reject) => {
        const tx = db.transaction(storeName, mode);
        const req = op(tx.objectStore(storeName));
        tx.oncomplete = () => resolve(req.result as R);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  }
  const available = () => typeof indexedDB !== 'undefined';
  return {
    read: async () => (available() ? ((await inStore<T | undefined>('readonly', (s) => s.get(key))) ?? null) : null),
    write: async (record) => {
      if (available()) await inStore('readwrite', (s) => s.put(record, key));
    },
    remove: async () => {
      if (available()) await inStore('readwrite', (s) => s.delete(key));
    },
  };
}
