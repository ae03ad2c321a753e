/**
 * Work that many requests of one isolate add to a buffer and one of them writes out for all — one write
 * for many requests instead of one each (domains/developer/usage-buffer.ts: API-key usage counts;
 * domains/canary/check-in-sender.ts: check-in projections).
 *
 * The request that adds work while no flusher runs starts one and hands it to its waitUntil; the flusher
 * waits `delayMs`, flushes, and goes on while anything is pending. Under constant load it hands over after
 * `maxRounds` (well inside waitUntil's 30 s): the next request that adds work starts the next one.
 */
export function isolateFlusher(opts: { delayMs: number; maxRounds: number; hasPending: () => boolean }) {
  let active = false;
  let current: Promise<void> | null = null;

  async function run(flush: () => Promise<void>): Promise<void> {
    try {
      for (let round = 0; round < opts.maxRounds && opts.hasPending(); round++) {
        await new Promise((resolve) => setTimeout(resolve, opts.delayMs));
        await flush();
      }
    } finally {
      // Checked and cleared in one synchronous step: work added after this starts the next flusher.
      active = false;
    }
  }

  return {
    /**
     * Returns the flusher to hand to waitUntil when this call starts one (flushing with `flush`, which
     * holds the starting request's bindings), or null when one is on its way (it carries this work too).
     */
    start(flush: () => Promise<void>): Promise<void> | null {
      if (active) return null;
      active = true;
      current = run(flush);
      return current;
    },
    /** The flusher on its way, if any. */
    running: (): Promise<void> | null => (active ? current : null),
  };
}
