import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { ProfileView, ZProfileUpdate } from '../../contracts/profile';
import type { ServiceContext } from '../../env';
import { getProfile } from './profile-view';

/** PATCH /api/profile: only the fields sent change. */
export async function updateProfile(ctx: ServiceContext, userId: string, input: z.output<typeof ZProfileUpdate>): Promise<ProfileView> {
  const changes: Partial<typeof schema.users.$inferInsert> = {};
  if (input.display_name !== undefined) changes.display_name = input.display_name;
  if (input.time_zone !== undefined) changes.time_zone = input.time_zone;
  if (Object.keys(changes).length) {
    await ctx.db
      .update(schema.users)
      .set({ ...changes, updated_at: ctx.now() })
      .where(eq(schema.users.id, userId));
  }
  return getProfile(ctx, userId);
}
