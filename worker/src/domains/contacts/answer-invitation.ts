import { nameWithEmail } from '../../lib/person-label';
import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, eq, or } from 'drizzle-orm';
import type { TContactInvitationAnswer } from '../../contracts/contacts';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { appOrigin } from '../../lib/app-origin';
import { hashSecret } from '../../lib/secrets';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { CONTACT_INVITATION_INVALID, personName } from './contact-records';
import { isUniqueViolation } from '../../lib/constraint-violation';

/**
 * POST /api/contacts/accept | decline {token}, signed in. The token is the proof: whoever holds the
 * emailed link answers with the account they sign in with, even if its email differs from the invited
 * address. Not your own invitation (422); not a second link between two people who are already contacts,
 * whichever of them invited (409). Single use: the hash is cleared with the answer.
 */
export async function answerContactInvitation(ctx: ServiceContext, user: User, token: string, accept: boolean): Promise<TContactInvitationAnswer> {
  const [row] = await ctx.db
    .select({ c: schema.contacts, owner: schema.users })
    .from(schema.contacts)
    .innerJoin(schema.users, eq(schema.users.id, schema.contacts.owner_id))
    .where(and(eq(schema.contacts.invite_token_hash, await hashSecret(token)), eq(schema.contacts.status, 'invited')))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', CONTACT_INVITATION_INVALID);
  const { c, owner } = row;
  if (owner.id === user.id)
    throw new AppError('UNPROCESSABLE', [
      { loc: ['body', 'token'], msg: 'This invitation is from you: send the link to the person you invited', type: 'self_invitation' },
    ]);
  const inviter = personName(owner);
  if (accept && (await areContacts(ctx, owner.id, user.id))) throw new AppError('CONFLICT', `You and ${inviter} are already contacts`);
  const status = accept ? 'accepted' : 'declined';
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const noticeId = crypto.randomUUID();
  const who = personName(user);
  let results: D1Result[];
  try {
    results = await db.batch([
      db
        .prepare(`UPDATE contacts SET status = ?1, contact_user_id = ?2, responded_at = ?3, invite_token_hash = NULL WHERE id = ?4 AND status = 'invited'`)
        .bind(status, user.id, now, c.id),
      // The inviter is told of an acceptance (a decline shows in their list, unannounced).
      ...(accept
        ? [
            insertOwnerNotice(
              db,
              {
                id: noticeId,
                userId: owner.id,
                kind: 'contact_accepted',
                subject: `${who} accepted your contact invitation`,
                text: `${nameWithEmail(who, c.email)} accepted your invitation: you can now pick each other by name as a message's recipient or as a guardian. Your contacts: ${appOrigin(ctx.env)}/app/contacts`,
                link: null,
                at: now,
              },
              { sql: 'WHERE changes() = 1' },
            ),
          ]
        : []),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', `You and ${inviter} are already contacts`);
    throw err;
  }
  if (results[0]!.meta.changes !== 1) throw new AppError('NOT_FOUND', CONTACT_INVITATION_INVALID);
  if (accept) await enqueueOwnerNotice(ctx, noticeId);
  return { id: c.id, status, inviter_name: inviter };
}

/** Whether two accounts are accepted contacts, whichever of them invited the other. */
export async function areContacts(ctx: ServiceContext, a: string, b: string): Promise<boolean> {
  const [hit] = await ctx.db
    .select({ id: schema.contacts.id })
    .from(schema.contacts)
    .where(
      and(
        eq(schema.contacts.status, 'accepted'),
        or(
          and(eq(schema.contacts.owner_id, a), eq(schema.contacts.contact_user_id, b)),
          and(eq(schema.contacts.owner_id, b), eq(schema.contacts.contact_user_id, a)),
        ),
      ),
    )
    .limit(1);
  return !!hit;
}
