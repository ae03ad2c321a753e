import { schema } from '@afterword/db';
import { lt } from 'drizzle-orm';
import type { ServiceContext } from '../env';

/** Deletes sessions past their expiry, throttle windows that ended and expired reset links, so the tables stay small. */
export async function sweepExpired(ctx: ServiceContext) {
  const now = ctx.now();
  // A revoked session is kept until its natural expiry so an audit can still see when it was closed.
  const [sessions, limits, resets] = await ctx.db.batch([
    ctx.db.delete(schema.sessions).where(lt(schema.sessions.expires_at, now)),
    ctx.db.delete(schema.rateLimits).where(lt(schema.rateLimits.window_ends_at, now)),
    ctx.db.delete(schema.passwordResetTokens).where(lt(schema.passwordResetTokens.expires_at, now)),
  ]);
  return { sessions: sessions.meta.changes, rateLimits: limits.meta.changes, resetTokens: resets.meta.changes };
}
