// How the benchmarks run the Worker: `wrangler dev` as everywhere else, with two local-only costs of
// the development runtime taken out, because neither exists where the Worker runs in production and
// together they were most of what the canary figures measured (docs/performance.md, "What the local
// runtime costs"):
//  - the local state (D1, Durable Objects, R2, queues) lives on a RAM file system (/dev/shm) when the
//    machine has one. Locally each Durable Object's storage is an SQLite file on disk; an object woken
//    after its eviction reopens it, and SQLite creates its -wal and -shm files anew, so every wake of
//    an idle object allocates two inodes. On this machine's ext4 that allocation took 22 % of the
//    runtime's thread in a burst of deadlines. On Cloudflare an object's storage is not a local file.
//  - wrangler's local observability collector is off (X_LOCAL_OBSERVABILITY=false): it streams every
//    invocation (request, RPC, alarm, queue batch) to a collector running on the same thread as the
//    Worker, for the local dashboard; it took 9 % of that thread serving /api/health and 15–17 % under
//    check-ins and deadlines.
// BENCH_ON_DISK=1 keeps the state in the OS temp dir and BENCH_OBSERVABILITY=1 keeps the collector, to
// measure what a developer's `wrangler dev` pays. Every bench prints the setting it ran with.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startWorker } from '../support/worker-server.mjs';

const RAM_DIR = '/dev/shm';

/** The settings of this run, from BENCH_ON_DISK and BENCH_OBSERVABILITY. */
export function benchRuntime() {
  const onDisk = process.env.BENCH_ON_DISK === '1' || !existsSync(RAM_DIR);
  const observability = process.env.BENCH_OBSERVABILITY === '1';
  return {
    persistRoot: onDisk ? tmpdir() : RAM_DIR,
    env: { X_LOCAL_OBSERVABILITY: observability ? 'true' : 'false' },
    describe: `local state in ${onDisk ? `${tmpdir()} (disk)` : `${RAM_DIR} (RAM)`}; wrangler's local observability collector ${observability ? 'on' : 'off'} (BENCH_ON_DISK=1, BENCH_OBSERVABILITY=1 change them)`,
  };
}

/** startWorker with the bench's runtime settings (above); `opts` as startWorker's. */
export function startBenchWorker(opts = {}) {
  const { persistRoot, env } = benchRuntime();
  return startWorker({ persistRoot, ...opts, env: { ...env, ...(opts.env ?? {}) } });
}
