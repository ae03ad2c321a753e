import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { eq } from 'drizzle-orm';
import { PHONE_CODE_MAX_ATTEMPTS, type ProfileView } from '../../contracts/profile';
import type { ServiceContext } from '../../env';
import { notFound } from '../../lib/errors';

type PendingVerification = typeof schema.phoneVerifications.$inferSelect;

/** A verification the user can still finish: not expired and attempts left. */
export function isLive(row: PendingVerification | undefined, now: Date): row is PendingVerification {
  return !!row && row.expires_at.getTime() > now.getTime() && row.attempts < PHONE_CODE_MAX_ATTEMPTS;
}

export function toProfileView(user: User, pending: PendingVerification | undefined, now: Date): ProfileView {
  const verified = !!user.phone_e164 && !!user.phone_verified_at;
  return {
    id: user.id,
    email: user.email,
    display_name: user.display_name,
    time_zone: user.time_zone,
    phone: verified ? user.phone_e164 : null,
    phone_verified: verified,
    pending_phone: isLive(pending, now) ? pending.phone : null,
  };
}

/** GET /api/profile. */
export async function getProfile(ctx: ServiceContext, userId: string): Promise<ProfileView> {
  const [users, pending] = await ctx.db.batch([
    ctx.db.select().from(schema.users).where(eq(schema.users.id, userId)).limit(1),
    ctx.db.select().from(schema.phoneVerifications).where(eq(schema.phoneVerifications.user_id, userId)).limit(1),
  ]);
  const user = users[0];
  if (!user) throw notFound('Account not found');
  return toProfileView(user, pending[0], ctx.now());
}
