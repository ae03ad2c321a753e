import { describe, expect, it } from 'vitest';
import { isolateFlusher } from '../src/lib/isolate-flusher';

describe('an isolate flusher', () => {
  it('is started by the first addition only, and flushes until nothing is pending', async () => {
    const pending: number[] = [];
    const written: number[][] = [];
    const flusher = isolateFlusher({ delayMs: 1, maxRounds: 10, hasPending: () => pending.length > 0 });
    const flush = async () => {
      const batch = pending.splice(0);
      written.push(batch);
      // Work added while a flush is on its way goes out in the next round of the same flusher.
      if (batch[0] === 1) pending.push(3);
    };
    pending.push(1);
    const first = flusher.start(flush);
    pending.push(2);
    expect(first).not.toBeNull();
    expect(flusher.start(flush)).toBeNull();
    expect(flusher.running()).toBe(first);
    await first;
    expect(written).toEqual([[1, 2], [3]]);
    expect(flusher.running()).toBeNull();
  });

  it('hands over after its last round: the next addition starts a new flusher that takes what was left', async () => {
    const pending: number[] = [];
    const written: number[][] = [];
    const flusher = isolateFlusher({ delayMs: 1, maxRounds: 2, hasPending: () => pending.length > 0 });
    // Each flush leaves one more behind (100, 101, …), as under constant load.
    const flush = async () => {
      written.push(pending.splice(0));
      pending.push(100 + written.length);
    };
    pending.push(1);
    await flusher.start(flush);
    expect(written).toEqual([[1], [101]]);
    expect(pending).toEqual([102]);
    expect(flusher.running()).toBeNull();

    pending.push(4);
    const again = flusher.start(flush);
    expect(again).not.toBeNull();
    await again;
    expect(written.slice(2)).toEqual([[102, 4], [103]]);
  });

  it('a flush that throws ends the flusher, and the next addition starts another', async () => {
    const pending = [1];
    const flusher = isolateFlusher({ delayMs: 1, maxRounds: 5, hasPending: () => pending.length > 0 });
    await expect(flusher.start(async () => Promise.reject(new Error('down')))!).rejects.toThrow('down');
    expect(flusher.running()).toBeNull();
    const started = flusher.start(async () => void pending.splice(0));
    expect(started).not.toBeNull();
    await started;
    expect(pending).toEqual([]);
  });
});
