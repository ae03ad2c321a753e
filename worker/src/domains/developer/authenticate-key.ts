import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { eq, sql } from 'drizzle-orm';
import { API_SCOPES, type ApiScope } from '../../contracts/developer';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { hashSecret } from '../../lib/secrets';
import { parseApiKey } from './key-format';
import { pendingCalls, recordKeyCall } from './usage-buffer';
import { monthKey, monthlyApiCalls, nextMonthStart, type QuotaState } from './quota';

export const INVALID_API_KEY = 'Invalid API key';
export const REVOKED_API_KEY = 'This API key has been revoked';

const unauthorized = (detail: string) => new AppError('UNAUTHORIZED', detail, { 'WWW-Authenticate': 'Bearer' });

export interface KeyCall {
  keyId: string;
  user: User;
  scopes: ApiScope[];
  sandbox: boolean;
  quota: QuotaState;
  /** Counted (usage buffer → api_usage): in scope and under the quota. */
  accepted: boolean;
  /** Why it was not counted, when metered. */
  refusal: null | 'scope' | 'quota';
}

/**
 * How a key call is looked up. `meter`: the route is open to keys (needing `scope`, if any) and an
 * accepted call is counted. `check`: the route is closed to keys; the key is only looked up, so that a
 * bad key still answers 401 before the route's 403.
 */
export type KeyLookupMode = { meter: true; scope?: ApiScope } | { meter: false };

/** Hands a background write to the runtime (the request's waitUntil). */
export type Defer = (work: Promise<unknown>) => void;

/**
 * Authenticates an API key with ONE D1 read, as the session path does: the key, its owner and the
 * month's count in D1. An accepted call (in scope, under the plan's quota counting this isolate's
 * not-yet-written calls) is counted in the usage buffer (usage-buffer.ts), which writes to D1 after the
 * answer, many calls in one batch — no write on the request path. A malformed key or a bad checksum
 * throws 401 before any database access.
 */
export async function authenticateApiKey(ctx: ServiceContext, token: string, mode: KeyLookupMode, defer: Defer): Promise<KeyCall> {
  const kind = parseApiKey(token);
  if (!kind) throw unauthorized(INVALID_API_KEY);
  const hash = await hashSecret(token);
  const now = ctx.now();
  const month = monthKey(now);
  const k = schema.apiKeys;
  const u = schema.apiUsage;

  const [row] = await ctx.db
    .select({
      id: k.id,
      scopes: k.scopes,
      sandbox: k.sandbox,
      revoked_at: k.revoked_at,
      user: schema.users,
      used: sql<number | null>`(SELECT sum(${u.count}) FROM ${u} WHERE ${u.user_id} = ${k.user_id} AND ${u.month} = ${month})`,
    })
    .from(k)
    .innerJoin(schema.users, eq(schema.users.id, k.user_id))
    .where(eq(k.key_hash, hash))
    .limit(1);
  if (!row) throw unauthorized(INVALID_API_KEY);
  if (row.revoked_at) throw unauthorized(REVOKED_API_KEY);

  const scopes = API_SCOPES.filter((s) => (row.scopes as string[]).includes(s));
  const limit = monthlyApiCalls(row.user.plan);
  // Read after the await, in the same synchronous step as the count below: concurrent calls in this
  // isolate see each other.
  const usedBefore = Number(row.used ?? 0) + pendingCalls(row.user.id, month);
  let refusal: KeyCall['refusal'] = null;
  if (mode.meter && mode.scope && !scopes.includes(mode.scope)) refusal = 'scope';
  else if (mode.meter && usedBefore >= limit) refusal = 'quota';
  const accepted = mode.meter && refusal === null;
  if (accepted) {
    const write = recordKeyCall(ctx.db, { keyId: row.id, userId: row.user.id, month, lastUsedAt: now.getTime() });
    if (write) defer(write);
  }
  return {
    keyId: row.id,
    user: row.user,
    scopes,
    // The stored flag is the truth; the prefix says the same for keys this server issued.
    sandbox: row.sandbox || kind.sandbox,
    quota: { limit, used: usedBefore + (accepted ? 1 : 0), resetAt: nextMonthStart(now) },
    accepted,
    refusal,
  };
}
