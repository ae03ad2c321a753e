import { schema } from '@afterword/db';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { ServiceContext } from '../../env';
import { endInactivity } from '../inactivity/end-inactivity';
import { hashSecret, newSecretToken } from '../../lib/secrets';

export type SessionMethod = 'password' | 'google' | 'passkey';

export function sessionTtlSeconds(ctx: ServiceContext): number {
  const ttl = Number(ctx.env.SESSION_TTL_SECONDS);
  return Number.isFinite(ttl) && ttl > 0 ? ttl : 30 * 24 * 3600;
}

/**
 * Opens a session and returns its bearer token: shown to the client once, stored only as a hash. A
 * sign-in is activity for the inactivity policy: it is recorded, and it ends an export window or an
 * archive (domains/inactivity/end-inactivity.ts).
 */
export async function createSession(ctx: ServiceContext, userId: string, method: SessionMethod) {
  const token = newSecretToken();
  const now = ctx.now();
  const expiresIn = sessionTtlSeconds(ctx);
  await ctx.db.batch([
    ctx.db.insert(schema.sessions).values({
      id: crypto.randomUUID(),
      user_id: userId,
      token_hash: await hashSecret(token),
      created_at: now,
      expires_at: new Date(now.getTime() + expiresIn * 1000),
      method,
    }),
    ctx.db.update(schema.users).set({ last_sign_in_at: now }).where(eq(schema.users.id, userId)),
  ]);
  await endInactivity(ctx, userId);
  return { access_token: token, token_type: 'bearer' as const, expires_in: expiresIn };
}

/** The user behind a bearer token, or null when the token is unknown, expired or revoked. */
export async function findSessionUser(ctx: ServiceContext, token: string) {
  const rows = await ctx.db
    .select({ user: schema.users, sessionId: schema.sessions.id })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.user_id))
    .where(and(eq(schema.sessions.token_hash, await hashSecret(token)), isNull(schema.sessions.revoked_at), gt(schema.sessions.expires_at, ctx.now())))
    .limit(1);
  return rows[0] ?? null;
}

/** Logout: the token stops working on the server at once, not only in the browser. */
export async function revokeSession(ctx: ServiceContext, sessionId: string) {
  await ctx.db.update(schema.sessions).set({ revoked_at: ctx.now() }).where(eq(schema.sessions.id, sessionId));
}
