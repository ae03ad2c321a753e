import { schema } from '@afterword/db';
import { alias } from 'drizzle-orm/sqlite-core';
import { and, desc, eq, or } from 'drizzle-orm';
import type { TContactView } from '../../contracts/contacts';
import type { ServiceContext } from '../../env';
import { contactNotFound, toContactView } from './contact-records';

const inviter = alias(schema.users, 'inviter');
const invitee = alias(schema.users, 'invitee');

/**
 * GET /api/contacts: the invitations I sent (invited, declined, accepted) and the ones I accepted from
 * others, newest first. A contact is mutual: both sides list the accepted row, each naming the other.
 * Invitations sent to me that I have not answered are not listed (the emailed link is their only door).
 */
export async function listContacts(ctx: ServiceContext, userId: string): Promise<TContactView[]> {
  const rows = await ctx.db
    .select({ c: schema.contacts, inviter, invitee })
    .from(schema.contacts)
    .innerJoin(inviter, eq(inviter.id, schema.contacts.owner_id))
    .leftJoin(invitee, eq(invitee.id, schema.contacts.contact_user_id))
    .where(or(eq(schema.contacts.owner_id, userId), and(eq(schema.contacts.contact_user_id, userId), eq(schema.contacts.status, 'accepted'))))
    .orderBy(desc(schema.contacts.invited_at));
  return rows.map((r) => toContactView(r.c, userId, r.c.owner_id === userId ? r.invitee : r.inviter));
}

/**
 * DELETE /api/contacts/{id}: either side removes the contact (or the inviter withdraws an invitation).
 * The row is deleted, so neither lists the other and an unsent invitation's link stops working. Anyone
 * else's id is 404.
 */
export async function removeContact(ctx: ServiceContext, userId: string, id: string): Promise<TContactView> {
  const [row] = await ctx.db
    .select({ c: schema.contacts, inviter, invitee })
    .from(schema.contacts)
    .innerJoin(inviter, eq(inviter.id, schema.contacts.owner_id))
    .leftJoin(invitee, eq(invitee.id, schema.contacts.contact_user_id))
    .where(
      and(
        eq(schema.contacts.id, id),
        or(eq(schema.contacts.owner_id, userId), and(eq(schema.contacts.contact_user_id, userId), eq(schema.contacts.status, 'accepted'))),
      ),
    );
  if (!row) throw contactNotFound();
  await ctx.db.delete(schema.contacts).where(eq(schema.contacts.id, id));
  return toContactView(row.c, userId, row.c.owner_id === userId ? row.invitee : row.inviter);
}
