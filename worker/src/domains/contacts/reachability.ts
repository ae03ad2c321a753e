import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import type { TReachability } from '../../contracts/contacts';
import type { ServiceContext } from '../../env';
import { areContacts } from './answer-invitation';
import { contactNotFound, personName } from './contact-records';

/**
 * GET /api/contacts/reachability/{user_id}: which delivery methods can reach this person now, for a
 * sender choosing one. Only between accepted contacts (anyone else, yourself included, is 404 like an
 * unknown id), and only booleans: never the number, how many devices, or when they were added
 * (docs/decisions/contacts.md).
 */
export async function contactReachability(ctx: ServiceContext, viewerId: string, userId: string): Promise<TReachability> {
  if (userId === viewerId || !(await areContacts(ctx, viewerId, userId))) throw contactNotFound();
  const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, userId));
  if (!user) throw contactNotFound();
  const [device] = await ctx.db
    .select({ id: schema.pushSubscriptions.id })
    .from(schema.pushSubscriptions)
    .where(eq(schema.pushSubscriptions.user_id, userId))
    .limit(1);
  const phone = !!user.phone_e164 && !!user.phone_verified_at;
  return { user_id: user.id, name: personName(user), methods: { email: true, sms: phone, call: phone, push: !!device } };
}
