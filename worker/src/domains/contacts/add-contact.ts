import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { and, eq, inArray } from 'drizzle-orm';
import { MAX_CONTACT_INVITATIONS_PER_DAY, type TAddContactInput, type TContactView } from '../../contracts/contacts';
import type { ServiceContext } from '../../env';
import { keyAndDigestOf, keyedRow } from '../../lib/create-retry';
import { AppError, bodyFieldError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { countInWindow, tooManyInWindow } from '../../lib/rate-window';
import { hashSecret, newSecretToken } from '../../lib/secrets';
import { toContactView } from './contact-records';
import { queueInvitation } from './resend-invitations';
import { isUniqueViolation } from '../../lib/constraint-violation';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * POST /api/contacts: invites `email` to be a contact. The request never looks the address up among
 * accounts, so its answer and its work are the same whether or not one exists (no enumeration): a row
 * with the token's SHA-256, then a JOBS message that sends the email (send-invitation.ts). Refused: your
 * own address (422), an address already invited or accepted by you (409), past 20 invitations a day (429).
 */
export async function addContact(ctx: ServiceContext, owner: User, input: TAddContactInput): Promise<TContactView> {
  if (input.email === owner.email) throw bodyFieldError('email', 'This is your own email: invite someone else', 'self_invitation');
  // Sent again after its answer was lost (docs/decisions/create-retries.md): the invitation its first try wrote,
  // counted once in the day's invitations.
  const retry = input.idempotency_key ? await keyAndDigestOf(input) : null;
  const earlier = retry ? await invitationOfKey(ctx, owner.id, retry) : null;
  if (earlier) return toContactView(earlier, owner.id, null);
  const now = ctx.now().getTime();
  const [live] = await ctx.db
    .select({ status: schema.contacts.status })
    .from(schema.contacts)
    .where(and(eq(schema.contacts.owner_id, owner.id), eq(schema.contacts.email, input.email), inArray(schema.contacts.status, ['invited', 'accepted'])));
  if (live) throw alreadyThere(input.email, live.status);
  await reserveInvitation(ctx, owner.id, now);

  const token = newSecretToken();
  const id = crypto.randomUUID();
  try {
    await ctx.db.insert(schema.contacts).values({
      id,
      owner_id: owner.id,
      email: input.email,
      contact_user_id: null,
      status: 'invited',
      invite_token_hash: await hashSecret(token),
      invited_at: new Date(now),
      // Queued with the write below; an invitation still unsent an hour on is sent again (resend-invitations.ts).
      invitation_queued_at: new Date(now),
      create_key: retry?.key ?? null,
      create_digest: retry?.digest ?? null,
    });
  } catch (err) {
    // Two invitations of one address at once: the partial unique index lets one through — this very invitation's
    // other try, when they share a key.
    const raced = retry && isUniqueViolation(err) ? await invitationOfKey(ctx, owner.id, retry) : null;
    if (raced) return toContactView(raced, owner.id, null);
    if (isUniqueViolation(err)) throw alreadyThere(input.email, 'invited');
    throw err;
  }
  try {
    await queueInvitation(ctx, id, token);
  } catch (err) {
    // The row stays `invited` with `invitation_sent_at` null: the cron sends it again, under a new token, within the hour.
    log.error('enqueue failed; the cron sends the contact invitation again', { queue: 'JOBS', type: 'contact_invitation', error: String(err) });
  }
  const [row] = await ctx.db.select().from(schema.contacts).where(eq(schema.contacts.id, id));
  return toContactView(row!, owner.id, null);
}

/** The owner's invitation an earlier try with this key wrote, or null; 409 when that try came with another input. */
async function invitationOfKey(ctx: ServiceContext, ownerId: string, retry: { key: string; digest: string }) {
  const [found] = await ctx.db
    .select()
    .from(schema.contacts)
    .where(and(eq(schema.contacts.owner_id, ownerId), eq(schema.contacts.create_key, retry.key)))
    .limit(1);
  return keyedRow(found, retry.digest, 'contact invitation');
}

/**
 * One more invitation in the owner's 24-hour window, refused past 20 (429 with Retry-After). Counted in
 * `rate_limits`, not from the contacts table: a withdrawn invitation's row is deleted, and withdrawing
 * and re-adding must not turn us into a mailer. Counted before the email is queued, atomically.
 */
async function reserveInvitation(ctx: ServiceContext, ownerId: string, now: number) {
  const { count, endsAt } = await countInWindow(ctx.db, `contact-invitations:${ownerId}`, now, DAY_MS);
  if (count > MAX_CONTACT_INVITATIONS_PER_DAY) {
    throw tooManyInWindow(`You sent ${MAX_CONTACT_INVITATIONS_PER_DAY} contact invitations in the last 24 hours: try again later`, endsAt, now);
  }
}

function alreadyThere(email: string, status: 'invited' | 'accepted' | 'declined') {
  return new AppError(
    'CONFLICT',
    status === 'accepted' ? `${email} is already your contact` : `${email} is already invited: remove the invitation to send a new one`,
  );
}
