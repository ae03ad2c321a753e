import { schema } from '@afterword/db';
import { lt } from 'drizzle-orm';
import type { ServiceContext } from '../env';

/**
 * Deletes sessions past their expiry, throttle windows that ended, expired reset links, passkey challenges
 * never answered and check-in links a day past their expiry, so the tables stay small.
 */
export async function sweepExpired(ctx: ServiceContext) {
  const now = ctx.now();
  // A revoked session is kept until its natural expiry so an audit can still see when it was closed.
  const [sessions, limits, resets, challenges, links] = await ctx.db.batch([
    ctx.db.delete(schema.sessions).where(lt(schema.sessions.expires_at, now)),
    ctx.db.delete(schema.rateLimits).where(lt(schema.rateLimits.window_ends_at, now)),
    ctx.db.delete(schema.passwordResetTokens).where(lt(schema.passwordResetTokens.expires_at, now)),
    ctx.db.delete(schema.webauthnChallenges).where(lt(schema.webauthnChallenges.expires_at, now)),
    // A day's grace: the link's page can still say "expired" rather than "not valid" for a while.
    ctx.db.delete(schema.checkInLinks).where(lt(schema.checkInLinks.expires_at, new Date(now.getTime() - 86_400_000))),
  ]);
  return {
    sessions: sessions.meta.changes,
    rateLimits: limits.meta.changes,
    resetTokens: resets.meta.changes,
    passkeyChallenges: challenges.meta.changes,
    checkInLinks: links.meta.changes,
  };
}
