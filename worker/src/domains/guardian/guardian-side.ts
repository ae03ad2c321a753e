import { nameWithEmail } from '../../lib/person-label';
import { appOrigin } from '../../lib/app-origin';
import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, eq } from 'drizzle-orm';
import type { TInvitationAnswer } from '../../contracts/guardian';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { hashSecret } from '../../lib/secrets';
import { enqueueOwnerNotice, insertOwnerNotice } from '../notify/enqueue-owner-notice';
import { guardianActor, guardianNotFound, ifRecorded, INVITATION_INVALID, personName, recordStep } from './ladder-records';
import { isUniqueViolation } from '../../lib/constraint-violation';

/*
 * What the guardian does to the guardianship itself: accept or decline an invitation, resign.
 * (Answers about the owner are in answer-guardian.ts.)
 */

/**
 * POST /api/guardian/accept | decline {token}, signed in. The token is the proof: whoever holds the
 * emailed link may answer with the account they sign in with, even if its email differs (people use
 * several addresses; the owner typed one). Two guards keep "one person, one vote": you cannot guard
 * yourself (422), and an account that already guards this owner cannot accept a second invitation (409).
 */
export async function answerInvitation(ctx: ServiceContext, user: User, token: string, accept: boolean): Promise<TInvitationAnswer> {
  const [row] = await ctx.db
    .select({ g: schema.guardians, owner: schema.users })
    .from(schema.guardians)
    .innerJoin(schema.users, eq(schema.users.id, schema.guardians.owner_id))
    .where(and(eq(schema.guardians.invite_token_hash, await hashSecret(token)), eq(schema.guardians.status, 'invited')))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', INVITATION_INVALID);
  const { g, owner } = row;
  if (owner.id === user.id)
    throw new AppError('UNPROCESSABLE', [
      { loc: ['body', 'token'], msg: 'This invitation is from you: you cannot be your own guardian', type: 'self_invitation' },
    ]);
  const ownerName = personName(owner);
  if (accept) {
    const [already] = await ctx.db
      .select({ id: schema.guardians.id })
      .from(schema.guardians)
      .where(and(eq(schema.guardians.owner_id, owner.id), eq(schema.guardians.guardian_user_id, user.id), eq(schema.guardians.status, 'active')));
    if (already) throw new AppError('CONFLICT', `You are already a guardian of ${ownerName}`);
  }
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const status = accept ? 'active' : 'declined';
  const kind = accept ? 'guardian_accepted' : 'guardian_declined';
  const step = recordStep(
    db,
    { ownerId: owner.id, kind, actor: guardianActor(g.id), cause: accept ? 'invitation_accepted' : 'invitation_declined', detail: g.email, at: now },
    { sql: 'WHERE changes() = 1' },
  );
  const noticeId = crypto.randomUUID();
  const who = personName(user);
  let results: D1Result[];
  try {
    results = await db.batch([
      db
        .prepare(`UPDATE guardians SET status = ?1, guardian_user_id = ?2, responded_at = ?3, invite_token_hash = NULL WHERE id = ?4 AND status = 'invited'`)
        .bind(status, user.id, now, g.id),
      step.statement,
      insertOwnerNotice(
        db,
        {
          id: noticeId,
          userId: owner.id,
          kind,
          subject: accept ? `${who} is now your guardian` : `${who} declined to be your guardian`,
          text: accept
            ? `${nameWithEmail(who, g.email)} accepted your invitation. Guardians are asked about you only after you miss a check-in; they never see your messages. Your guardians: ${appOrigin(ctx.env)}/app/guardian`
            : `${nameWithEmail(who, g.email)} declined your invitation to be a guardian. You can invite someone else: ${appOrigin(ctx.env)}/app/guardian`,
          link: null,
          at: now,
        },
        ifRecorded(step.id),
      ),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', `You are already a guardian of ${ownerName}`);
    throw err;
  }
  if (results[0]!.meta.changes !== 1) throw new AppError('NOT_FOUND', INVITATION_INVALID);
  await enqueueOwnerNotice(ctx, noticeId);
  return { id: g.id, status, owner_name: ownerName };
}

/** The caller's own guardianship `id` (404 for anyone else's, whatever its status). */
export async function loadOwnGuardianship(ctx: ServiceContext, userId: string, id: string) {
  const [row] = await ctx.db
    .select({ g: schema.guardians, owner: schema.users })
    .from(schema.guardians)
    .innerJoin(schema.users, eq(schema.users.id, schema.guardians.owner_id))
    .where(and(eq(schema.guardians.id, id), eq(schema.guardians.guardian_user_id, userId)))
    .limit(1);
  if (!row) throw guardianNotFound();
  return row;
}

/** POST /api/guardian/{id}/resign: the guardian steps down; the owner is told. Their earlier votes stop counting. */
export async function resignGuardianship(ctx: ServiceContext, user: User, id: string): Promise<TInvitationAnswer> {
  const { g, owner } = await loadOwnGuardianship(ctx, user.id, id);
  if (g.status !== 'active') throw new AppError('CONFLICT', `You are not an active guardian of ${personName(owner)} (${g.status})`);
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const who = personName(user);
  const step = recordStep(
    db,
    { ownerId: owner.id, kind: 'guardian_resigned', actor: guardianActor(g.id), cause: 'guardian_resigned', detail: g.email, at: now },
    { sql: 'WHERE changes() = 1' },
  );
  const noticeId = crypto.randomUUID();
  const results = await db.batch([
    db.prepare(`UPDATE guardians SET status = 'resigned', ended_at = ?1 WHERE id = ?2 AND status = 'active'`).bind(now, g.id),
    step.statement,
    insertOwnerNotice(
      db,
      {
        id: noticeId,
        userId: owner.id,
        kind: 'guardian_resigned',
        subject: `${who} is no longer your guardian`,
        text: `${nameWithEmail(who, g.email)} resigned as your guardian. You can invite someone else: ${appOrigin(ctx.env)}/app/guardian`,
        link: null,
        at: now,
      },
      ifRecorded(step.id),
    ),
  ]);
  if (results[0]!.meta.changes !== 1) throw new AppError('CONFLICT', 'This guardianship was just changed: reload and try again');
  await enqueueOwnerNotice(ctx, noticeId);
  return { id: g.id, status: 'resigned', owner_name: personName(owner) };
}
