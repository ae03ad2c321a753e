import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

export type ChallengePurpose = 'register' | 'sign-in' | 'check-in';

export const CHALLENGE_TTL_MS = 5 * 60_000;

export const CHALLENGE_GONE = 'This passkey request has expired or was already answered. Please try again.';

/** Keeps a challenge handed to a browser until it is answered (once) or five minutes pass. */
export async function storeChallenge(ctx: ServiceContext, purpose: ChallengePurpose, challenge: string, userId: string | null): Promise<string> {
  const id = crypto.randomUUID();
  await ctx.env.DB.prepare('INSERT INTO webauthn_challenges (id, user_id, purpose, challenge, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)')
    .bind(id, userId, purpose, challenge, ctx.now().getTime() + CHALLENGE_TTL_MS)
    .run();
  return id;
}

/**
 * Takes a challenge for its answer: deleted by the same statement that reads it, so an answer replayed (or
 * sent twice at once) finds nothing the second time. A challenge for another purpose or another user is 409
 * like a used one, and is left alone.
 */
export async function takeChallenge(ctx: ServiceContext, id: string, purpose: ChallengePurpose, userId: string | null): Promise<string> {
  const row = await ctx.env.DB.prepare(
    'DELETE FROM webauthn_challenges WHERE id = ?1 AND purpose = ?2 AND user_id IS ?3 AND expires_at > ?4 RETURNING challenge',
  )
    .bind(id, purpose, userId, ctx.now().getTime())
    .first<{ challenge: string }>();
  if (!row) throw new AppError('CONFLICT', CHALLENGE_GONE);
  return row.challenge;
}
