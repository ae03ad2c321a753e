import { CANARY_NOTICE_KINDS } from '@afterword/db/enums';
import { canaryLabel, type TCheckInLink, type TCheckInResult } from '../../contracts/canary';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { fromBase64Url, toBase64Url } from '../../lib/encoding';
import { AppError } from '../../lib/errors';
import { constantTimeEqual, hashSecret, newSecretToken } from '../../lib/secrets';
import { macWithTokenSecret, type TokenEnv, UUID, uuidBytes, uuidOf } from './canary-token';
import { checkInCanary } from './check-in';

/**
 * One-tap check-in links (docs/decisions/check-in-links.md). Each canary warning that is sent carries a link
 * of its own: opening it shows a page with one button, and only that button's POST checks the canary in, so
 * a link-preview bot or a mail scanner that fetches the link changes nothing. A link works once, for
 * CHECK_IN_LINK_TTL_MS.
 *
 * A link is **signed, not stored** (since 2026-11-29): its token carries the canary, the warning, its expiry
 * and a nonce in the clear, with a MAC by the server's token secret (as a canary's own token is:
 * canary-token.ts), so sending a warning writes nothing. D1 holds a row only for a link that was pressed —
 * keyed by the SHA-256 of its token — which is what makes it work once: the press inserts it, and of parallel
 * presses one insert wins. Links made before (43 characters: a random token whose hash D1 stored when sent)
 * keep working until they expire. The stored notice keeps the Canary Status link (the token is put into the
 * words only as they are sent).
 */
export const CHECK_IN_LINK_TTL_MS = 7 * 86_400_000;

const CANARY_NOTICES: ReadonlySet<string> = new Set(CANARY_NOTICE_KINDS.map((k) => `canary_${k}`));
/** A link made before links were signed: a 256-bit random token in base64url (newSecretToken), its hash stored. */
const STORED_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/**
 * A signed link's token: base64url(canary id 16 bytes ‖ notice id 16 ‖ expiry in ms 6 ‖ nonce 4 ‖ MAC 16), 58
 * bytes. The nonce makes each sending's link its own (a warning re-sent within the same millisecond included);
 * the MAC is the first 128 bits of HMAC-SHA256 over the rest.
 */
const SIGNED_TOKEN = /^[A-Za-z0-9_-]{78}$/;
const SIGNED_BYTES = 58;
const SIGNED_PART = 42;
const MAC_LABEL = 'check-in-link';

async function macOf(env: TokenEnv, signed: Uint8Array): Promise<Uint8Array> {
  return (await macWithTokenSecret(env, MAC_LABEL, signed)).subarray(0, SIGNED_BYTES - SIGNED_PART);
}

async function signedToken(env: TokenEnv, canaryId: string, noticeId: string, expiresAt: number): Promise<string> {
  const bytes = new Uint8Array(SIGNED_BYTES);
  const view = new DataView(bytes.buffer);
  bytes.set(uuidBytes(canaryId), 0);
  bytes.set(uuidBytes(noticeId), 16);
  view.setUint16(32, Math.floor(expiresAt / 2 ** 32));
  view.setUint32(34, expiresAt % 2 ** 32);
  crypto.getRandomValues(bytes.subarray(38, SIGNED_PART));
  bytes.set(await macOf(env, bytes.subarray(0, SIGNED_PART)), SIGNED_PART);
  return toBase64Url(bytes);
}

/** A signed token's contents, or null when it is not one the server made (any altered byte fails the MAC). */
async function readSignedToken(env: TokenEnv, token: string): Promise<{ canaryId: string; noticeId: string; expiresAt: number } | null> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = fromBase64Url(token);
  } catch {
    return null;
  }
  if (bytes.byteLength !== SIGNED_BYTES) return null;
  if (!constantTimeEqual(await macOf(env, bytes.subarray(0, SIGNED_PART)), bytes.subarray(SIGNED_PART))) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return {
    canaryId: uuidOf(bytes.subarray(0, 16)),
    noticeId: uuidOf(bytes.subarray(16, 32)),
    expiresAt: view.getUint16(32) * 2 ** 32 + view.getUint32(34),
  };
}

export const CHECK_IN_LINK_NOT_VALID = 'This check-in link is not valid. Sign in to check in.';

/** Whether a notice of `kind` about a canary gets a check-in link when sent. */
export const carriesCheckInLink = (kind: string, canaryId: string | null): canaryId is string => canaryId !== null && CANARY_NOTICES.has(kind);

/**
 * Makes the link for one sending of a canary notice: signed, nothing written (a canary deleted meanwhile makes
 * its link open as not valid). A notice whose id is not a UUID (none are made now) gets a stored link, as before.
 */
export async function issueCheckInLink(ctx: ServiceContext, notice: { userId: string; canaryId: string; noticeId: string }): Promise<string> {
  const now = ctx.now().getTime();
  if (UUID.test(notice.canaryId) && UUID.test(notice.noticeId)) {
    return `${appOrigin(ctx.env)}/check-in/${await signedToken(ctx.env, notice.canaryId, notice.noticeId, now + CHECK_IN_LINK_TTL_MS)}`;
  }
  const token = newSecretToken();
  await ctx.env.DB.prepare(
    `INSERT INTO check_in_links (token_hash, user_id, canary_id, notice_id, created_at, expires_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM canaries WHERE id = ?3 AND user_id = ?2 AND active = 1)`,
  )
    .bind(await hashSecret(token), notice.userId, notice.canaryId, notice.noticeId, now, now + CHECK_IN_LINK_TTL_MS)
    .run();
  return `${appOrigin(ctx.env)}/check-in/${token}`;
}

interface LinkRow {
  canary_id: string;
  name: string;
  expires_at: number;
  used_at: number | null;
}

interface FoundLink {
  hash: string;
  row: LinkRow;
  /** A signed link's warning (its row is written only when pressed); absent for a stored one. */
  signed?: { noticeId: string };
}

async function findLink(ctx: ServiceContext, token: string): Promise<FoundLink> {
  if (SIGNED_TOKEN.test(token)) return findSignedLink(ctx, token);
  if (!STORED_TOKEN.test(token)) throw new AppError('NOT_FOUND', CHECK_IN_LINK_NOT_VALID);
  const hash = await hashSecret(token);
  const row = await ctx.env.DB.prepare(
    `SELECT l.canary_id, c.name, l.expires_at, l.used_at FROM check_in_links l
     JOIN canaries c ON c.id = l.canary_id AND c.active = 1 WHERE l.token_hash = ?1`,
  )
    .bind(hash)
    .first<LinkRow>();
  if (!row) throw new AppError('NOT_FOUND', CHECK_IN_LINK_NOT_VALID);
  return { hash, row };
}

/** A signed link: its canary (still there), and whether it was pressed (its row). */
async function findSignedLink(ctx: ServiceContext, token: string): Promise<FoundLink> {
  const link = await readSignedToken(ctx.env, token);
  if (!link) throw new AppError('NOT_FOUND', CHECK_IN_LINK_NOT_VALID);
  const hash = await hashSecret(token);
  const row = await ctx.env.DB.prepare(
    `SELECT c.id AS canary_id, c.name, ?3 AS expires_at, l.used_at FROM canaries c
     LEFT JOIN check_in_links l ON l.token_hash = ?2 WHERE c.id = ?1 AND c.active = 1`,
  )
    .bind(link.canaryId, hash, link.expiresAt)
    .first<LinkRow>();
  if (!row) throw new AppError('NOT_FOUND', CHECK_IN_LINK_NOT_VALID);
  return { hash, row, signed: { noticeId: link.noticeId } };
}

/**
 * Takes the link for one press: a stored link by one conditional UPDATE, a signed one by inserting its row (the
 * token's hash is the key) — either way, of parallel presses exactly one takes it. False when it was used or expired.
 */
async function takeLink(ctx: ServiceContext, found: FoundLink, now: number): Promise<boolean> {
  if (!found.signed) {
    const taken = await ctx.env.DB.prepare(
      'UPDATE check_in_links SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING canary_id',
    )
      .bind(found.hash, now)
      .first();
    return taken !== null;
  }
  const { row } = found;
  const taken = await ctx.env.DB.prepare(
    `INSERT INTO check_in_links (token_hash, user_id, canary_id, notice_id, created_at, expires_at, used_at)
     SELECT ?1, c.user_id, c.id, ?3, ?4, ?5, ?6 FROM canaries c WHERE c.id = ?2 AND c.active = 1 AND ?5 > ?6
     ON CONFLICT (token_hash) DO NOTHING RETURNING canary_id`,
  )
    .bind(found.hash, row.canary_id, found.signed.noticeId, row.expires_at - CHECK_IN_LINK_TTL_MS, row.expires_at, now)
    .first();
  return taken !== null;
}

/** Gives a taken link back (the check-in it was taken for failed): a signed link's row goes, a stored one is unused again. */
async function giveBack(ctx: ServiceContext, found: FoundLink, now: number): Promise<void> {
  const sql = found.signed
    ? 'DELETE FROM check_in_links WHERE token_hash = ?1 AND used_at = ?2'
    : 'UPDATE check_in_links SET used_at = NULL WHERE token_hash = ?1 AND used_at = ?2';
  await ctx.env.DB.prepare(sql).bind(found.hash, now).run();
}

const stateOf = (row: LinkRow, now: number): TCheckInLink['state'] => (row.used_at !== null ? 'used' : row.expires_at <= now ? 'expired' : 'ready');

/** GET /api/check-in-links/{token}: what the button would do. Never checks in. */
export async function describeCheckInLink(ctx: ServiceContext, token: string): Promise<TCheckInLink> {
  const { row } = await findLink(ctx, token);
  return {
    canary_name: canaryLabel(row.name),
    state: stateOf(row, ctx.now().getTime()),
    expires_at: new Date(row.expires_at).toISOString(),
    used_at: row.used_at === null ? null : new Date(row.used_at).toISOString(),
  };
}

/**
 * POST /api/check-in-links/{token}: the button. The link is taken in one write (takeLink), so of parallel
 * presses exactly one checks in; if the canary's object then fails, the link is given back.
 */
export async function redeemCheckInLink(ctx: ServiceContext, token: string): Promise<TCheckInResult> {
  const found = await findLink(ctx, token);
  const { row } = found;
  const now = ctx.now().getTime();
  if (!(await takeLink(ctx, found, now))) {
    const state = stateOf((await findLink(ctx, token)).row, now);
    throw new AppError(
      'CONFLICT',
      state === 'expired' ? 'This check-in link has expired. Sign in to check in.' : 'This check-in link was already used. Sign in to check in again.',
    );
  }
  let checkedIn: TCheckInResult | null;
  try {
    checkedIn = await checkInCanary(ctx, row.canary_id, null, 'link');
  } catch (err) {
    await giveBack(ctx, found, now);
    throw err;
  }
  if (!checkedIn) throw new AppError('NOT_FOUND', CHECK_IN_LINK_NOT_VALID);
  return checkedIn;
}
