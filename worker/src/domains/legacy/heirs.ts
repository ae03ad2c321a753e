import { schema } from '@afterword/db';
import { asc, eq, inArray } from 'drizzle-orm';
import { HEIR_ERRORS, type THeirs, type THeirsInput, ZHeirsInput } from '../../contracts/legacy';
import type { ServiceContext } from '../../env';
import { bodyFieldError } from '../../lib/errors';
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
 * POST /api/deadman/heirs: replaces the list in one batch (all of it or none). Every heir must be an
 * account other than the owner's (422 on the field otherwise): a copy is made for an account, into its
 * own records, so that it outlives the erasure of the owner's.
 */
export async function setHeirs(ctx: ServiceContext, ownerId: string, raw: THeirsInput): Promise<THeirs> {
  const input = ZHeirsInput.parse(raw);
  const ids = input.heirs.map((h) => h.recipient_user_id.toLowerCase());
  if (ids.includes(ownerId)) throw bodyFieldError('heirs', HEIR_ERRORS.self, 'heir_self');
  const found = ids.length ? await ctx.db.select({ id: schema.users.id }).from(schema.users).where(inArray(schema.users.id, ids)) : [];
  const missing = ids.find((id) => !found.some((f) => f.id === id));
  if (missing) throw bodyFieldError('heirs', HEIR_ERRORS.unknown, 'heir_unknown');
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
