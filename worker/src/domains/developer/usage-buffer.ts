import { schema } from '@afterword/db';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { isolateFlusher } from '../../lib/isolate-flusher';

/**
 * Accepted API-key calls that this isolate has not yet written to D1 (api_usage). A key call adds one
 * here and its answer leaves at once; one request at a time (the "flusher") writes everything pending
 * after USAGE_FLUSH_DELAY_MS, in one D1 batch, from its waitUntil. Under load that is one write for
 * many calls instead of one per call — the whole cost the key path had over the session path
 * (docs/performance.md, docs/decisions/api-keys.md).
 *
 * The quota check adds this isolate's pending calls to what D1 holds, so within an isolate the quota is
 * exact; across isolates it can be passed by at most the calls other isolates have not flushed yet
 * (one flush delay's worth). A call is removed from here only after D1 has committed it.
 */
export const USAGE_FLUSH_DELAY_MS = 50;
/** A flusher under constant load hands over after this many rounds (stays well inside waitUntil's 30 s). */
const MAX_FLUSH_ROUNDS = 100;

interface Pending {
  keyId: string;
  userId: string;
  month: string;
  /** Calls not yet committed to D1, including those a write is carrying now. */
  count: number;
  /** Of `count`, how many a write has taken and not yet committed (never taken twice). */
  inFlight: number;
  lastUsedAt: number;
}

const pending = new Map<string, Pending>();
const flusher = isolateFlusher({ delayMs: USAGE_FLUSH_DELAY_MS, maxRounds: MAX_FLUSH_ROUNDS, hasPending: () => pending.size > 0 });

const slot = (keyId: string, month: string) => `${keyId}|${month}`;

/** Calls of `userId` in `month` counted here but not yet in D1. */
export function pendingCalls(userId: string, month: string): number {
  let n = 0;
  for (const p of pending.values()) if (p.userId === userId && p.month === month) n += p.count;
  return n;
}

/** A key's calls counted here but not yet in D1, and its latest use among them. */
export function pendingForKey(keyId: string): { count: number; lastUsedAt: number | null } {
  let count = 0;
  let lastUsedAt: number | null = null;
  for (const p of pending.values()) {
    if (p.keyId !== keyId) continue;
    count += p.count;
    lastUsedAt = Math.max(lastUsedAt ?? 0, p.lastUsedAt);
  }
  return { count, lastUsedAt };
}

/**
 * Counts one accepted call. Returns the write to hand to waitUntil when this request becomes the
 * flusher, or null when a flush is already on its way (it will carry this call too).
 */
export function recordKeyCall(db: ServiceContext['db'], call: Omit<Pending, 'count' | 'inFlight'>): Promise<void> | null {
  const key = slot(call.keyId, call.month);
  const entry = pending.get(key);
  if (entry) {
    entry.count += 1;
    entry.lastUsedAt = Math.max(entry.lastUsedAt, call.lastUsedAt);
  } else {
    pending.set(key, { ...call, count: 1, inFlight: 0 });
  }
  return flusher.start(() => flushPendingUsage(db));
}

/**
 * Writes every pending count to D1 now (one batch); what was written is then taken off the buffer.
 * On a D1 error the counts stay pending for the next round, and the error is reported without keys.
 */
export async function flushPendingUsage(db: ServiceContext['db']): Promise<void> {
  // Each write takes only what no other write has taken, so overlapping flushes never count a call twice.
  const batch: Pending[] = [];
  for (const p of pending.values()) {
    const n = p.count - p.inFlight;
    if (n <= 0) continue;
    p.inFlight += n;
    batch.push({ ...p, count: n });
  }
  if (!batch.length) return;
  let committed = false;
  try {
    await db.batch(usageWrites(db, batch));
    committed = true;
  } catch (error) {
    console.error('api usage flush failed; counts stay pending', { rows: batch.length, error: error instanceof Error ? error.message : String(error) });
  }
  for (const p of batch) {
    const key = slot(p.keyId, p.month);
    const entry = pending.get(key);
    if (!entry) continue;
    entry.inFlight -= p.count;
    if (committed) entry.count -= p.count;
    if (entry.count <= 0) pending.delete(key);
  }
}

/** One upsert per (key, month): count + n, the latest use. */
function usageWrites(db: ServiceContext['db'], batch: readonly Pending[]) {
  const u = schema.apiUsage;
  const k = schema.apiKeys;
  const writes = batch.map((p) =>
    db
      .insert(u)
      // From the key's row, so that a key deleted meanwhile (its account gone) is skipped, not an FK error.
      .select(
        db
          .select({
            key_id: k.id,
            user_id: k.user_id,
            month: sql<string>`${p.month}`.as('month'),
            count: sql<number>`${p.count}`.as('count'),
            last_used_at: sql<number>`${p.lastUsedAt}`.as('last_used_at'),
          })
          .from(k)
          .where(sql`${k.id} = ${p.keyId}`),
      )
      .onConflictDoUpdate({
        target: [u.key_id, u.month],
        set: { count: sql`${u.count} + excluded.count`, last_used_at: sql`max(${u.last_used_at}, excluded.last_used_at)` },
      }),
  );
  return writes as [(typeof writes)[number], ...typeof writes];
}
