import { ACCEPTED_CONTACT_IDS_SQL } from '../contacts/contact-records';
import { schema } from '@afterword/db';
import { asc, eq } from 'drizzle-orm';
import { HEIR_ERRORS, type THeirs, type THeirsInput, ZHeirsInput } from '../../contracts/legacy';
import type { ServiceContext } from '../../env';
import { bodyFieldError, notFound } from '../../lib/errors';
import { personLabel } from '../../lib/person-label';

/** GET /api/deadman/heirs: who receives which parts before a dead-man deletion. */
export async function listHeirs(ctx: ServiceContext, ownerId: string): Promise<THeirs> {
  const rows = await ctx.db
    .select({ heir: schema.deadmanHeirs, email: schema.users.email, display_name: schema.users.display_name })
    .from(schema.deadmanHeirs)
    .innerJoin(schema.users, eq(schema.users.id, schema.deadmanHeirs.recipient_user_id))
    .where(eq(schema.deadmanHeirs.owner_id, ownerId))
    .orderBy(asc(schema.deadmanHeirs.created_at), asc(schema.deadmanHeirs.recipient_user_id));
  return { heirs: rows.map((r) => ({ recipient_user_id: r.heir.recipient_user_id, name: personLabel(r), parts: r.heir.parts })) };
}

/**
 * POST /api/deadman/heirs: replaces the list in one batch (all of it or none). Every heir must be one of
 * the owner's accepted contacts (404 otherwise: a user id is not an address book — any id would have
 * answered that person's email as its name), and never the owner (422). A copy is made for an account,
 * into its own records, so that it outlives the erasure of the owner's.
 */
export async function setHeirs(ctx: ServiceContext, ownerId: string, raw: THeirsInput): Promise<THeirs> {
  const input = ZHeirsInput.parse(raw);
  const ids = input.heirs.map((h) => h.recipient_user_id.toLowerCase());
  if (ids.includes(ownerId)) throw bodyFieldError('heirs', HEIR_ERRORS.self, 'heir_self');
  const contacts = ids.length
    ? await ctx.env.DB.prepare(`SELECT value AS id FROM json_each(?2) WHERE value IN (${ACCEPTED_CONTACT_IDS_SQL})`)
        .bind(ownerId, JSON.stringify(ids))
        .all<{ id: string }>()
    : { results: [] };
  if (ids.some((id) => !contacts.results.some((c) => c.id === id))) throw notFound(HEIR_ERRORS.notContact);
  const now = ctx.now();
  await ctx.db.batch([
    ctx.db.delete(schema.deadmanHeirs).where(eq(schema.deadmanHeirs.owner_id, ownerId)),
    ...input.heirs.map((h, i) =>
      ctx.db.insert(schema.deadmanHeirs).values({
        owner_id: ownerId,
        recipient_user_id: h.recipient_user_id.toLowerCase(),
        parts: h.parts,
        // One millisecond apart: the list keeps the order it was given in.
        created_at: new Date(now.getTime() + i),
      }),
    ),
  ]);
  return listHeirs(ctx, ownerId);
}
