import { schema } from '@afterword/db';
import { sql } from 'drizzle-orm';
import type { Db } from '@afterword/db';
import { AppError } from './errors';

/**
 * One more event in `key`'s fixed window of `windowMs` (in `rate_limits`, shared by every isolate): one
 * atomic upsert, and a window that has ended starts again at 1. Returns the new count and the window's end.
 */
export async function countInWindow(db: Db, key: string, nowMs: number, windowMs: number): Promise<{ count: number; endsAt: number }> {
  const r = schema.rateLimits;
  const [row] = await db
    .insert(r)
    .values({ key, count: 1, window_ends_at: new Date(nowMs + windowMs) })
    .onConflictDoUpdate({
      target: r.key,
      set: {
        count: sql`CASE WHEN ${r.window_ends_at} <= ${nowMs} THEN 1 ELSE ${r.count} + 1 END`,
        window_ends_at: sql`CASE WHEN ${r.window_ends_at} <= ${nowMs} THEN excluded.window_ends_at ELSE ${r.window_ends_at} END`,
      },
    })
    .returning({ count: r.count, endsAt: r.window_ends_at });
  return { count: row!.count, endsAt: row!.endsAt.getTime() };
}

/** 429 with `detail` and a Retry-After of the seconds left in the window (at least 1). */
export const tooManyInWindow = (detail: string, endsAt: number, nowMs: number) =>
  new AppError('TOO_MANY_REQUESTS', detail, { 'Retry-After': String(Math.max(1, Math.ceil((endsAt - nowMs) / 1000))) });
