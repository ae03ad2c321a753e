import { nameWithEmail } from '../../lib/person-label';
import { brokenLimit, ifInserted, insertWithinLimits, type Limit, wrote } from '../../lib/limited-insert';
import { isLiveGuardian } from '../../contracts/guardian';
import { appOrigin } from '../../lib/app-origin';
import { schema } from '@afterword/db';
import type { Guardian, User } from '@afterword/db/schema';
import { and, desc, eq } from 'drizzle-orm';
import { MAX_GUARDIANS, MAX_INVITATIONS_PER_DAY, type TAssignGuardianInput, type TGuardianView } from '../../contracts/guardian';
import type { ServiceContext } from '../../env';
import { keyAndDigestOf, keyedRow } from '../../lib/create-retry';
import { AppError, bodyFieldError } from '../../lib/errors';
import { hashSecret, newSecretToken } from '../../lib/secrets';
import { enqueueGuardianNotices, noticeToGuardian } from './guardian-notices';
import { returnedIds } from '../../lib/db-batch';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { DAY_MS, guardianNotFound, ifRecorded, personName, recordStep } from './ladder-records';
import { isUniqueViolation } from '../../lib/constraint-violation';

const isLive = (g: Pick<Guardian, 'status'>) => isLiveGuardian(g.status);

export function toGuardianView(g: Guardian, name: string | null = null): TGuardianView {
  return {
    id: g.id,
    email: g.email,
    status: g.status,
    name,
    invited_at: g.invited_at.toISOString(),
    responded_at: g.responded_at?.toISOString() ?? null,
    ended_at: g.ended_at?.toISOString() ?? null,
  };
}

/**
 * POST /api/guardian/assign: invites `email` to be a guardian. The answer is the same whether or not the
 * address has an account (no account enumeration): the invitation is an email with a single-use accept
 * link carrying a 256-bit token, of which only the SHA-256 is stored. At most 5 invited or active
 * guardians (403), one live invitation per address (409), never yourself (422), and at most 20
 * invitations a day (429), so revoking and re-inviting cannot turn us into a mailer.
 */
/** Live guardians (invited or active) and invitations in the last 24 hours, held by the insert itself. */
export const guardianLimits = (ownerId: string, now: number): [Limit, Limit] => [
  { count: "SELECT count(*) FROM guardians WHERE owner_id = ? AND status IN ('invited', 'active')", params: [ownerId], max: MAX_GUARDIANS },
  { count: 'SELECT count(*) FROM guardians WHERE owner_id = ? AND invited_at > ?', params: [ownerId, now - DAY_MS], max: MAX_INVITATIONS_PER_DAY },
];

export async function assignGuardian(ctx: ServiceContext, owner: User, input: TAssignGuardianInput): Promise<TGuardianView> {
  const rows = await ctx.db.select().from(schema.guardians).where(eq(schema.guardians.owner_id, owner.id));
  // Sent again after its answer was lost (docs/decisions/create-retries.md): the invitation its first try wrote —
  // even if the guardian consent was withdrawn between, as the answer says what happened.
  const retry = input.idempotency_key ? await keyAndDigestOf(input) : null;
  const earlier = retry ? invitationOfKey(rows, retry) : null;
  if (earlier) return toGuardianView(earlier);
  await requireConsent(ctx, owner.id, 'guardian', consentWithdrawn('guardian', 'no guardian is invited'));
  if (input.email === owner.email)
    throw bodyFieldError('email', 'You cannot be your own guardian: invite someone who would know if something happened to you', 'self_invitation');
  const now = ctx.now().getTime();
  const same = rows.find((g) => isLive(g) && g.email === input.email);
  if (same)
    throw new AppError(
      'CONFLICT',
      same.status === 'active' ? `${input.email} is already your guardian` : `${input.email} is already invited: revoke the invitation to send a new one`,
    );
  if (rows.filter(isLive).length >= MAX_GUARDIANS) {
    throw new AppError(
      'FORBIDDEN',
      `You already have ${MAX_GUARDIANS} guardians (invited or active), the most an account may have: revoke one before inviting another`,
    );
  }
  const today = rows.filter((g) => g.invited_at.getTime() > now - DAY_MS).sort((a, b) => a.invited_at.getTime() - b.invited_at.getTime());
  if (today.length >= MAX_INVITATIONS_PER_DAY) {
    const seconds = Math.max(1, Math.ceil((today[0]!.invited_at.getTime() + DAY_MS - now) / 1000));
    throw new AppError('TOO_MANY_REQUESTS', `You sent ${MAX_INVITATIONS_PER_DAY} guardian invitations in the last 24 hours: try again later`, {
      'Retry-After': String(seconds),
    });
  }

  const token = newSecretToken();
  const id = crypto.randomUUID();
  const db = ctx.env.DB;
  const name = personName(owner);
  const link = `${appOrigin(ctx.env)}/guardian/accept/${token}`;
  const limits = guardianLimits(owner.id, now);
  const inserted = ifInserted('guardians', id);
  const step = recordStep(
    db,
    { ownerId: owner.id, kind: 'guardian_invited', actor: 'owner', cause: 'owner_invited', detail: input.email, at: now },
    { sql: `WHERE ${inserted.sql}`, params: [...inserted.params] },
  );
  const statements = [
    // The limits are part of the insert (lib/limited-insert.ts): parallel invitations cannot pass them together.
    insertWithinLimits(
      db,
      'guardians',
      {
        id,
        owner_id: owner.id,
        email: input.email,
        guardian_user_id: null,
        status: 'invited',
        invite_token_hash: await hashSecret(token),
        invited_at: now,
        create_key: retry?.key ?? null,
        create_digest: retry?.digest ?? null,
      },
      limits,
    ),
    step.statement,
    noticeToGuardian(
      db,
      owner.id,
      id,
      {
        kind: 'invitation',
        subject: `${name} asks you to be their guardian on Afterword`,
        text: [
          `${nameWithEmail(name, owner.email)} named you as one of their guardians on Afterword, a service that releases the messages they prepared if they stop checking in.`,
          'As a guardian you may be asked, after they miss a check-in, whether you have heard from them. You can answer that they are fine, hold things for a few days, or report their death — which they can refute by checking in. You never see their messages or files.',
          `To accept or decline, open this link and sign in (or create an account):\n${link}`,
          `If you do not know ${name}, ignore this email.`,
        ].join('\n\n'),
        sandbox: false,
        at: now,
      },
      ifRecorded(step.id),
    ),
  ];
  let results: D1Result[];
  try {
    results = await db.batch(statements);
  } catch (err) {
    // Two invitations of one address at once: the partial unique index lets one through — this very invitation's
    // other try, when they share a key.
    const raced = retry && isUniqueViolation(err) ? await invitationRaced(ctx, owner.id, retry) : null;
    if (raced) return toGuardianView(raced);
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', `${input.email} is already invited: revoke the invitation to send a new one`);
    throw err;
  }
  if (!wrote(results[0])) {
    const raced = retry ? await invitationRaced(ctx, owner.id, retry) : null;
    if (raced) return toGuardianView(raced);
    const broken = await brokenLimit(db, limits);
    if (broken === limits[1]) {
      throw new AppError('TOO_MANY_REQUESTS', `You sent ${MAX_INVITATIONS_PER_DAY} guardian invitations in the last 24 hours: try again later`, {
        'Retry-After': String(Math.ceil(DAY_MS / 1000)),
      });
    }
    throw new AppError(
      'FORBIDDEN',
      `You already have ${MAX_GUARDIANS} guardians (invited or active), the most an account may have: revoke one before inviting another`,
    );
  }
  await enqueueGuardianNotices(ctx, returnedIds(results.slice(2)));
  const [row] = await ctx.db.select().from(schema.guardians).where(eq(schema.guardians.id, id));
  return toGuardianView(row!);
}

/** The owner's invitation an earlier try with this key wrote, among `rows`; 409 when that try came with another input. */
const invitationOfKey = (rows: readonly Guardian[], retry: { key: string; digest: string }) =>
  keyedRow(
    rows.find((g) => g.create_key === retry.key),
    retry.digest,
    'guardian invitation',
  );

/** After a write another try of this invitation beat (by a unique index or a limit): that try's invitation, if it was one. */
async function invitationRaced(ctx: ServiceContext, ownerId: string, retry: { key: string; digest: string }) {
  const rows = await ctx.db
    .select()
    .from(schema.guardians)
    .where(and(eq(schema.guardians.owner_id, ownerId), eq(schema.guardians.create_key, retry.key)));
  return invitationOfKey(rows, retry);
}

/** GET /api/guardian/list: the owner's guardians, newest first, with the accepting account's name. */
export async function listGuardians(ctx: ServiceContext, ownerId: string): Promise<TGuardianView[]> {
  const rows = await ctx.db
    .select({ g: schema.guardians, name: schema.users.display_name, email: schema.users.email })
    .from(schema.guardians)
    .leftJoin(schema.users, eq(schema.users.id, schema.guardians.guardian_user_id))
    .where(eq(schema.guardians.owner_id, ownerId))
    .orderBy(desc(schema.guardians.invited_at));
  return rows.map((r) => toGuardianView(r.g, r.email ? personName({ display_name: r.name ?? '', email: r.email }) : null));
}

/** DELETE /api/guardian/{id}: the owner revokes an invitation or a guardian. Another owner's id is 404. */
export async function revokeGuardian(ctx: ServiceContext, ownerId: string, id: string): Promise<TGuardianView> {
  const [g] = await ctx.db
    .select()
    .from(schema.guardians)
    .where(and(eq(schema.guardians.id, id), eq(schema.guardians.owner_id, ownerId)));
  if (!g) throw guardianNotFound();
  if (!isLive(g)) throw new AppError('CONFLICT', `This guardian is already ${g.status}`);
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  const results = await db.batch([
    db
      .prepare(`UPDATE guardians SET status = 'revoked', ended_at = ?1, invite_token_hash = NULL WHERE id = ?2 AND status IN ('invited', 'active')`)
      .bind(now, id),
    recordStep(db, { ownerId, kind: 'guardian_revoked', actor: 'owner', cause: 'owner_revoked', detail: g.email, at: now }, { sql: 'WHERE changes() = 1' })
      .statement,
  ]);
  if (results[0]!.meta.changes !== 1) throw new AppError('CONFLICT', 'This guardian was just changed: reload and try again');
  const [row] = await ctx.db.select().from(schema.guardians).where(eq(schema.guardians.id, id));
  return toGuardianView(row!);
}
