import { appOrigin } from '../../lib/app-origin';
import { schema } from '@afterword/db';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { createChannels } from '../../channels/registry';
import {
  PASSWORD_RESET_EMAILS_PER_HOUR,
  PASSWORD_RESET_REQUESTS_PER_ADDRESS_PER_HOUR,
  PASSWORD_RESET_TTL_MINUTES,
  type PasswordResetInspection,
  type ZPasswordResetConfirm,
} from '../../contracts/auth';
import type { TWrappedPrivateKey } from '../../contracts/e2ee';
import type { ServiceContext } from '../../env';
import { countInWindow } from '../../lib/rate-window';
import { AppError, bodyFieldError } from '../../lib/errors';
import { hashPassword } from '../../lib/kdf';
import { log } from '../../lib/logger';
import { hashSecret, newSecretToken } from '../../lib/secrets';
import { isCommonPassword } from './common-passwords';
import { loginThrottleKeys } from './login-throttle';

const HOUR_MS = 60 * 60_000;
const TTL_MS = PASSWORD_RESET_TTL_MINUTES * 60_000;

export const PASSWORD_RESET_ERRORS = {
  invalidToken: 'This password reset link is invalid, has expired or was already used. Ask for a new one.',
  common: 'This password is too common. Choose one that is harder to guess.',
  keyChoice:
    'This account has end-to-end encryption keys. Send key_bundle: {password_wrap} if you opened your private key with your recovery key (everything stays readable), or a whole new bundle {public_key, password_wrap, recovery_wrap} to start over without it (what was encrypted for the old keys can no longer be read).',
  noKeysToWrap: 'This account has no encryption keys to re-wrap: send a whole new bundle (public_key, password_wrap, recovery_wrap), or no key_bundle',
} as const;

const invalidToken = () => new AppError('BAD_REQUEST', PASSWORD_RESET_ERRORS.invalidToken);

/** One more request in `key`'s hourly window (atomic; an ended window starts again at 1): the new count. */
const countRequest = (ctx: ServiceContext, key: string, nowMs: number) => countInWindow(ctx.db, key, nowMs, HOUR_MS);

/**
 * POST /api/auth/password-reset/request. The answer is the same 202 whether or not an account has this
 * email (no account enumeration). For an account, a single-use link valid for 30 minutes is emailed;
 * only the token's SHA-256 is stored. At most 3 emails per address per hour (further requests are
 * answered alike and send nothing); at most 20 requests per client address per hour (then 429).
 */
export async function requestPasswordReset(ctx: ServiceContext, email: string, clientAddress: string): Promise<{ ok: true }> {
  const nowMs = ctx.now().getTime();
  const byAddress = await countRequest(ctx, `pwreset:ip:${clientAddress}`, nowMs);
  if (byAddress.count > PASSWORD_RESET_REQUESTS_PER_ADDRESS_PER_HOUR) {
    const seconds = Math.max(1, Math.ceil((byAddress.endsAt - nowMs) / 1000));
    throw new AppError('TOO_MANY_REQUESTS', `Too many password reset requests. Try again in ${Math.ceil(seconds / 60)} minutes.`, {
      'Retry-After': String(seconds),
    });
  }
  // Counted for every email, known or not, so the limit itself reveals nothing.
  const byEmail = await countRequest(ctx, `pwreset:email:${await hashSecret(email)}`, nowMs);
  if (byEmail.count > PASSWORD_RESET_EMAILS_PER_HOUR) return { ok: true };

  const [user] = await ctx.db.select({ id: schema.users.id, email: schema.users.email }).from(schema.users).where(eq(schema.users.email, email)).limit(1);
  if (!user) return { ok: true };

  const token = newSecretToken();
  const id = crypto.randomUUID();
  await ctx.db.insert(schema.passwordResetTokens).values({
    id,
    user_id: user.id,
    token_hash: await hashSecret(token),
    created_at: new Date(nowMs),
    expires_at: new Date(nowMs + TTL_MS),
    used_at: null,
  });
  const link = `${appOrigin(ctx.env)}/reset-password?token=${encodeURIComponent(token)}`;
  const result = await createChannels(ctx).email(
    { email: user.email },
    {
      idempotencyKey: `password-reset:${id}`,
      // The account the link resets, never whoever asked: locally only its owner's outbox shows the link.
      recipientUserId: user.id,
      subject: 'Reset your Afterword password',
      text: [
        'Someone — hopefully you — asked to reset the password of your Afterword account.',
        `Open this link within ${PASSWORD_RESET_TTL_MINUTES} minutes to choose a new one (it works once):`,
        link,
        'If you did not ask, ignore this email: your password stays as it is.',
      ].join('\n\n'),
      link,
    },
  );
  if (!result.ok) {
    // A link nobody received is useless: remove it. The answer stays 202 (it must not differ by account).
    await ctx.db.delete(schema.passwordResetTokens).where(eq(schema.passwordResetTokens.id, id));
    log.warn('password reset email not sent', { user_id: user.id, retryable: result.retryable, error: result.error });
  }
  return { ok: true };
}

/** The live (unused, unexpired) token behind a link, with its account and whether that account has keys. */
async function liveToken(ctx: ServiceContext, token: string) {
  const t = schema.passwordResetTokens;
  const [row] = await ctx.db
    .select({ id: t.id, user_id: t.user_id, email: schema.users.email, recovery_wrap: schema.userKeys.recovery_wrap })
    .from(t)
    .innerJoin(schema.users, eq(schema.users.id, t.user_id))
    .leftJoin(schema.userKeys, eq(schema.userKeys.user_id, t.user_id))
    .where(and(eq(t.token_hash, await hashSecret(token)), isNull(t.used_at), gt(t.expires_at, ctx.now())))
    .limit(1);
  return row;
}

/**
 * POST /api/auth/password-reset/inspect: what the reset page needs before the new password — the
 * account's email and, when it has E2EE keys, the recovery-wrapped private key (useless without the
 * recovery key, which only the user holds). Does not spend the token.
 */
export async function inspectPasswordReset(ctx: ServiceContext, token: string): Promise<PasswordResetInspection> {
  const row = await liveToken(ctx, token);
  if (!row) throw invalidToken();
  return { email: row.email, has_keys: row.recovery_wrap != null, recovery_wrap: (row.recovery_wrap as TWrappedPrivateKey | null) ?? null };
}

/**
 * POST /api/auth/password-reset/confirm. With keys, the caller must choose
 * (docs/server-rules.md "End-to-end encryption"): the same key pair re-wrapped (`{password_wrap}`, after
 * opening it with the recovery key) or a whole new bundle. Everything — the new hash, the keys, revoking every
 * session, spending this and the account's other links, clearing failed sign-ins — is one D1 batch whose
 * statements all require the token to be still live, and the last spends it: two uses of one link cannot both
 * succeed, and a failure changes nothing.
 */
export async function confirmPasswordReset(ctx: ServiceContext, input: z.output<typeof ZPasswordResetConfirm>, clientAddress: string): Promise<{ ok: true }> {
  const row = await liveToken(ctx, input.token);
  if (!row) throw invalidToken();
  if (isCommonPassword(input.new_password)) throw bodyFieldError('new_password', PASSWORD_RESET_ERRORS.common, 'common_password');
  const bundle = input.key_bundle;
  const hasKeys = row.recovery_wrap != null;
  if (!bundle && hasKeys) throw bodyFieldError('key_bundle', PASSWORD_RESET_ERRORS.keyChoice, 'e2ee_key_choice');
  const fullBundle = bundle?.public_key !== undefined && bundle.recovery_wrap !== undefined;
  if (bundle && !fullBundle && !hasKeys) throw bodyFieldError('key_bundle', PASSWORD_RESET_ERRORS.noKeysToWrap, 'no_keys');

  const newHash = await hashPassword(input.new_password);
  const now = ctx.now().getTime();
  const db = ctx.env.DB;
  // ?1 token id, ?2 now, ?3 user id.
  const live = `EXISTS (SELECT 1 FROM password_reset_tokens WHERE id = ?1 AND used_at IS NULL AND expires_at > ?2)`;
  const statements: D1PreparedStatement[] = [
    db.prepare(`UPDATE users SET password_hash = ?4, updated_at = ?2 WHERE id = ?3 AND ${live}`).bind(row.id, now, row.user_id, newHash),
  ];
  if (bundle && fullBundle) {
    statements.push(
      db
        .prepare(
          `INSERT INTO user_keys (user_id, public_key, password_wrap, recovery_wrap, created_at, updated_at) SELECT ?3, ?4, ?5, ?6, ?2, ?2 WHERE ${live}
           ON CONFLICT (user_id) DO UPDATE SET public_key = excluded.public_key, password_wrap = excluded.password_wrap, recovery_wrap = excluded.recovery_wrap, recovery_saved_at = NULL, created_at = excluded.created_at, updated_at = excluded.updated_at`,
        )
        .bind(row.id, now, row.user_id, JSON.stringify(bundle.public_key), JSON.stringify(bundle.password_wrap), JSON.stringify(bundle.recovery_wrap)),
    );
  } else if (bundle) {
    // Opened with the recovery key: the owner evidently has it, so it counts as saved.
    statements.push(
      db
        .prepare(`UPDATE user_keys SET password_wrap = ?4, recovery_saved_at = COALESCE(recovery_saved_at, ?2), updated_at = ?2 WHERE user_id = ?3 AND ${live}`)
        .bind(row.id, now, row.user_id, JSON.stringify(bundle.password_wrap)),
    );
  }
  // A reset lifts the account's sign-in limits: its email ceiling and every address's pair window.
  const throttle = await loginThrottleKeys(row.email, clientAddress);
  statements.push(
    db.prepare(`UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?3 AND revoked_at IS NULL AND ${live}`).bind(row.id, now, row.user_id),
    db
      .prepare(`DELETE FROM rate_limits WHERE (key = ?4 OR substr(key, 1, length(?5)) = ?5) AND ${live}`)
      .bind(row.id, now, row.user_id, throttle.email, throttle.pairPrefix),
    db.prepare(`UPDATE password_reset_tokens SET used_at = ?2 WHERE user_id = ?3 AND id != ?1 AND used_at IS NULL AND ${live}`).bind(row.id, now, row.user_id),
    db.prepare(`UPDATE password_reset_tokens SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL AND expires_at > ?2`).bind(row.id, now),
  );
  const results = await db.batch(statements);
  if (results.at(-1)!.meta.changes !== 1) throw invalidToken();
  return { ok: true };
}
