import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { z } from 'zod';
import type { TCheckInResult } from '../../contracts/canary';
import type { TLoginResult } from '../../contracts/auth';
import type { TPasskey, TPasskeyChallenge, ZPasskeyAssertionInput, ZRegisterPasskeyInput } from '../../contracts/passkeys';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { fromBase64Url, fromHex, toBase64Url } from '../../lib/encoding';
import { createSession } from '../auth/sessions';
import { checkInAll } from '../canary/check-in';
import { storeChallenge, takeChallenge, type ChallengePurpose } from './challenges';
import { relyingParty } from './relying-party';

/**
 * Passkeys (docs/decisions/passkeys.md): made on the Notifications page, they sign a person in and check in
 * every canary with a touch or a glance (user verification required), which a script holding a session or a
 * bot following a link cannot do. @simplewebauthn/server makes the options and checks every answer: the
 * challenge (used once, five minutes), the origin, the domain, the signature and its counter.
 */
export const PASSKEY_NOT_VERIFIED = 'The passkey could not be verified. Please try again.';
export const PASSKEY_NOT_FOUND = 'This passkey is not registered with Afterword.';
/** At most this many passkeys per account (the list stays short enough to read). */
export const PASSKEYS_MAX = 20;

interface PasskeyRow {
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  backed_up: number;
  created_at: number;
  last_used_at: number | null;
}

const toPasskey = (r: PasskeyRow): TPasskey => ({
  id: r.id,
  name: r.name,
  backed_up: Boolean(r.backed_up),
  created_at: new Date(r.created_at).toISOString(),
  last_used_at: r.last_used_at === null ? null : new Date(r.last_used_at).toISOString(),
});

const transportsOf = (r: Pick<PasskeyRow, 'transports'>) => JSON.parse(r.transports) as AuthenticatorTransport[];

async function passkeysOf(ctx: ServiceContext, userId: string): Promise<PasskeyRow[]> {
  const { results } = await ctx.env.DB.prepare('SELECT * FROM passkeys WHERE user_id = ?1 ORDER BY created_at').bind(userId).all<PasskeyRow>();
  return results;
}

/** POST /api/passkeys/registration-options: what the browser needs to make a passkey for the signed-in person. */
export async function registrationOptions(ctx: ServiceContext, user: { id: string; email: string; display_name: string | null }): Promise<TPasskeyChallenge> {
  const rp = relyingParty(ctx.env);
  const existing = await passkeysOf(ctx, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.display_name ?? user.email,
    // The WebAuthn user handle: the account id's 16 bytes (no personal data).
    userID: fromHex(user.id.replaceAll('-', '')),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  return { challenge_id: await storeChallenge(ctx, 'register', options.challenge, user.id), options: options as unknown as Record<string, unknown> };
}

/** POST /api/passkeys: keeps the passkey the browser made, once its answer checks out. */
export async function registerPasskey(ctx: ServiceContext, userId: string, input: z.output<typeof ZRegisterPasskeyInput>): Promise<TPasskey> {
  const expectedChallenge = await takeChallenge(ctx, input.challenge_id, 'register', userId);
  const rp = relyingParty(ctx.env);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('UNPROCESSABLE', PASSKEY_NOT_VERIFIED);
  }
  if (!verified.verified) throw new AppError('UNPROCESSABLE', PASSKEY_NOT_VERIFIED);
  const { credential, credentialBackedUp } = verified.registrationInfo;
  const now = ctx.now().getTime();
  // The limit and the uniqueness of the credential are held by the insert itself.
  const row = await ctx.env.DB.prepare(
    `INSERT INTO passkeys (id, user_id, public_key, counter, transports, name, backed_up, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE (SELECT count(*) FROM passkeys WHERE user_id = ?2) < ?9
     ON CONFLICT (id) DO NOTHING RETURNING *`,
  )
    .bind(
      credential.id,
      userId,
      toBase64Url(credential.publicKey),
      credential.counter,
      JSON.stringify(credential.transports ?? []),
      input.name,
      credentialBackedUp ? 1 : 0,
      now,
      PASSKEYS_MAX,
    )
    .first<PasskeyRow>();
  if (!row) {
    const taken = await ctx.env.DB.prepare('SELECT 1 FROM passkeys WHERE id = ?1').bind(credential.id).first();
    throw new AppError('CONFLICT', taken ? 'This passkey is already registered.' : `An account holds at most ${PASSKEYS_MAX} passkeys. Remove one first.`);
  }
  return toPasskey(row);
}

export async function listPasskeys(ctx: ServiceContext, userId: string): Promise<{ passkeys: TPasskey[] }> {
  return { passkeys: (await passkeysOf(ctx, userId)).map(toPasskey) };
}

export async function deletePasskey(ctx: ServiceContext, userId: string, id: string): Promise<{ ok: true }> {
  const gone = await ctx.env.DB.prepare('DELETE FROM passkeys WHERE id = ?1 AND user_id = ?2').bind(id, userId).run();
  if (!gone.meta.changes) throw new AppError('NOT_FOUND', 'Passkey not found');
  return { ok: true };
}

/** Options for navigator.credentials.get(): any passkey of this site (sign-in), or one of the person's own (check-in). */
async function assertionOptions(ctx: ServiceContext, purpose: ChallengePurpose, userId: string | null): Promise<TPasskeyChallenge> {
  const rp = relyingParty(ctx.env);
  const own = userId ? await passkeysOf(ctx, userId) : [];
  if (userId && !own.length) throw new AppError('NOT_FOUND', 'You have no passkey yet: make one on the Notifications page.');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    allowCredentials: own.map((p) => ({ id: p.id, transports: transportsOf(p) })),
  });
  return { challenge_id: await storeChallenge(ctx, purpose, options.challenge, userId), options: options as unknown as Record<string, unknown> };
}

export const signInOptions = (ctx: ServiceContext) => assertionOptions(ctx, 'sign-in', null);
export const checkInOptions = (ctx: ServiceContext, userId: string) => assertionOptions(ctx, 'check-in', userId);

/** Checks an answer to a challenge of `purpose` and moves the passkey's counter; returns the passkey's owner. */
async function verifyAssertion(
  ctx: ServiceContext,
  purpose: ChallengePurpose,
  userId: string | null,
  input: z.output<typeof ZPasskeyAssertionInput>,
): Promise<string> {
  const expectedChallenge = await takeChallenge(ctx, input.challenge_id, purpose, userId);
  const response = input.response as unknown as AuthenticationResponseJSON;
  const passkey =
    typeof response.id === 'string' ? await ctx.env.DB.prepare('SELECT * FROM passkeys WHERE id = ?1').bind(response.id).first<PasskeyRow>() : null;
  // Someone else's passkey is as unknown as a made-up one.
  if (!passkey || (userId !== null && passkey.user_id !== userId)) throw new AppError('UNAUTHORIZED', PASSKEY_NOT_FOUND);
  const rp = relyingParty(ctx.env);
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: { id: passkey.id, publicKey: fromBase64Url(passkey.public_key), counter: passkey.counter, transports: transportsOf(passkey) },
    });
  } catch {
    throw new AppError('UNAUTHORIZED', PASSKEY_NOT_VERIFIED);
  }
  if (!verified.verified) throw new AppError('UNAUTHORIZED', PASSKEY_NOT_VERIFIED);
  // The counter only moves forward: of two answers racing with the same count, one finds it moved.
  const moved = await ctx.env.DB.prepare('UPDATE passkeys SET counter = ?2, last_used_at = ?3 WHERE id = ?1 AND (counter < ?2 OR ?2 = 0)')
    .bind(passkey.id, verified.authenticationInfo.newCounter, ctx.now().getTime())
    .run();
  if (!moved.meta.changes) throw new AppError('UNAUTHORIZED', PASSKEY_NOT_VERIFIED);
  return passkey.user_id;
}

/** POST /api/auth/passkey: a session for whoever the passkey belongs to. */
export async function signInWithPasskey(ctx: ServiceContext, input: z.output<typeof ZPasskeyAssertionInput>): Promise<TLoginResult> {
  const userId = await verifyAssertion(ctx, 'sign-in', null, input);
  return createSession(ctx, userId, 'passkey');
}

/** POST /api/canary/checkin/passkey: the signed-in person, verified by their own passkey, checks in every canary. */
export async function checkInWithPasskey(ctx: ServiceContext, userId: string, input: z.output<typeof ZPasskeyAssertionInput>): Promise<TCheckInResult> {
  await verifyAssertion(ctx, 'check-in', userId, input);
  return checkInAll(ctx, userId, 'passkey');
}
