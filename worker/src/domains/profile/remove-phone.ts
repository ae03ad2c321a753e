import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { ProfileView } from '../../contracts/profile';
import type { ServiceContext } from '../../env';
import { dropSmsMethodStatement } from '../notify/preferences';
import { getProfile } from './profile-view';

/**
 * DELETE /api/profile/phone: forgets the number, any code on its way, and SMS as a chosen method, in
 * one batch, so preferences never name a channel that has no number behind it.
 */
export async function removePhone(ctx: ServiceContext, userId: string): Promise<ProfileView> {
  const now = ctx.now();
  await ctx.db.batch([
    ctx.db.update(schema.users).set({ phone_e164: null, phone_verified_at: null, updated_at: now }).where(eq(schema.users.id, userId)),
    ctx.db.delete(schema.phoneVerifications).where(eq(schema.phoneVerifications.user_id, userId)),
    dropSmsMethodStatement(ctx, userId),
  ]);
  return getProfile(ctx, userId);
}
