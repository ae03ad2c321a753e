import { CANARY_NOTICE_KINDS } from '@afterword/db/enums';
import { canaryLabel, type TCheckInLink, type TCheckInResult } from '../../contracts/canary';
import type { ServiceContext } from '../../env';
import { appOrigin } from '../../lib/app-origin';
import { AppError } from '../../lib/errors';
import { hashSecret, newSecretToken } from '../../lib/secrets';
import { checkInCanary } from './check-in';

/**
 * One-tap check-in links (docs/decisions/check-in-links.md). Each canary warning that is sent carries a link
 * of its own: opening it shows a page with one button, and only that button's POST checks the canary in, so
 * a link-preview bot or a mail scanner that fetches the link changes nothing. A link works once, for
 * CHECK_IN_LINK_TTL_MS; the database keeps the SHA-256 of its token, never the token, and the stored notice
 * keeps the Canary Status link (the token is put into the words only as they are sent).
 */
export const CHECK_IN_LINK_TTL_MS = 7 * 86_400_000;

const CANARY_NOTICES: ReadonlySet<string> = new Set(CANARY_NOTICE_KINDS.map((k) => `canary_${k}`));
/** A 256-bit token in base64url (newSecretToken). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const CHECK_IN_LINK_NOT_VALID = 'This check-in link is not valid. Sign in to check in.';

/** Whether a notice of `kind` about a canary gets a check-in link when sent. */
export const carriesCheckInLink = (kind: string, canaryId: string | null): canaryId is string => canaryId !== null && CANARY_NOTICES.has(kind);

/**
 * Makes the link for one sending of a canary notice. A canary deleted meanwhile gets no row, so its link
 * opens as not valid.
 */
export async function issueCheckInLink(ctx: ServiceContext, notice: { userId: string; canaryId: string; noticeId: string }): Promise<string> {
  const token = newSecretToken();
  const now = ctx.now().getTime();
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

async function findLink(ctx: ServiceContext, token: string): Promise<{ hash: string; row: LinkRow }> {
  if (!TOKEN.test(token)) throw new AppError('NOT_FOUND', CHECK_IN_LINK_NOT_VALID);
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
 * POST /api/check-in-links/{token}: the button. The link is taken by one conditional UPDATE, so of parallel
 * presses exactly one checks in; if the canary's object then fails, the link is given back.
 */
export async function redeemCheckInLink(ctx: ServiceContext, token: string): Promise<TCheckInResult> {
  const { hash, row } = await findLink(ctx, token);
  const now = ctx.now().getTime();
  const taken = await ctx.env.DB.prepare(
    'UPDATE check_in_links SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING canary_id',
  )
    .bind(hash, now)
    .first<{ canary_id: string }>();
  if (!taken) {
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
    await ctx.env.DB.prepare('UPDATE check_in_links SET used_at = NULL WHERE token_hash = ?1 AND used_at = ?2').bind(hash, now).run();
    throw err;
  }
  if (!checkedIn) throw new AppError('NOT_FOUND', CHECK_IN_LINK_NOT_VALID);
  return checkedIn;
}
