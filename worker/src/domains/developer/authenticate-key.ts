import { schema } from '@afterword/db';
import type { User } from '@afterword/db/schema';
import { eq, sql } from 'drizzle-orm';
import { API_SCOPES, type ApiScope } from '../../contracts/developer';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { hashSecret } from '../../lib/secrets';
import { parseApiKey } from './key-format';
import { monthKey, monthlyApiCalls, nextMonthStart, PLAN_API_CALLS_SQL, type QuotaState } from './quota';

export const INVALID_API_KEY = 'Invalid API key';
export const REVOKED_API_KEY = 'This API key has been revoked';

const unauthorized = (detail: string) => new AppError('UNAUTHORIZED', detail, { 'WWW-Authenticate': 'Bearer' });

export interface KeyCall {
  keyId: string;
  user: User;
  scopes: ApiScope[];
  sandbox: boolean;
  quota: QuotaState;
  /** Counted (the key's api_usage row for the month): in scope and under the quota. */
  accepted: boolean;
  /** Why it was not counted, when metered. */
  refusal: null | 'scope' | 'quota';
}

/**
 * How a key call is looked up. `meter`: the route is open to keys (needing `scope`, if any) and an
 * accepted call is counted in the same D1 batch as the lookup. `check`: the route is closed to keys;
 * the key is only looked up, so that a bad key still answers 401 before the route's 403.
 */
export type KeyLookupMode = { meter: true; scope?: ApiScope } | { meter: false };

/**
 * Authenticates an API key in ONE D1 round trip (the session lookup costs one too): a batch (one
 * transaction) that reads the key, its owner and this month's count, and — only when the call is in
 * scope and under the plan's quota — adds 1 to the key's api_usage row for the month and sets its last
 * use (usage_count and last_used_at are derived from those rows). The SQL conditions and the JavaScript ones below read the same snapshot, so
 * what is counted is exactly what is accepted, even with concurrent calls near the limit.
 * A malformed key or a bad checksum throws 401 before any database access.
 */
export async function authenticateApiKey(ctx: ServiceContext, token: string, mode: KeyLookupMode): Promise<KeyCall> {
  const kind = parseApiKey(token);
  if (!kind) throw unauthorized(INVALID_API_KEY);
  const hash = await hashSecret(token);
  const now = ctx.now();
  const month = monthKey(now);
  const k = schema.apiKeys;

  // D1 batch results come back as objects keyed by column name, so every selected column needs a
  // name of its own: the key's columns are aliased (users has `id` and `created_at` too).
  const lookup = ctx.db
    .select({
      id: sql<string>`${k.id}`.as('key_id'),
      scopes: sql<string[]>`${k.scopes}`.mapWith(k.scopes).as('key_scopes'),
      sandbox: sql<boolean>`${k.sandbox}`.mapWith(k.sandbox).as('key_sandbox'),
      revoked_at: sql<number | null>`${k.revoked_at}`.as('key_revoked_at'),
      user: schema.users,
      used: sql<number | null>`(SELECT sum(api_usage.count) FROM api_usage WHERE api_usage.user_id = ${k.user_id} AND api_usage.month = ${month})`.as('used_this_month'),
    })
    .from(k)
    .innerJoin(schema.users, eq(schema.users.id, k.user_id))
    .where(eq(k.key_hash, hash))
    .limit(1);

  let rows;
  if (mode.meter) {
    // Correlated on the api_keys row selected for the insert.
    const accepted = sql`api_keys.key_hash = ${hash} AND api_keys.revoked_at IS NULL
      ${mode.scope ? sql`AND EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE json_each.value = ${mode.scope})` : sql``}
      AND coalesce((SELECT sum(api_usage.count) FROM api_usage WHERE api_usage.user_id = api_keys.user_id AND api_usage.month = ${month}), 0)
        < (SELECT ${PLAN_API_CALLS_SQL} FROM users WHERE users.id = api_keys.user_id)`;
    // One write per call: the key's row for the month (count + 1, last use).
    [rows] = await ctx.db.batch([
      lookup,
      ctx.db
        .insert(schema.apiUsage)
        .select(
          ctx.db
            .select({
              key_id: k.id,
              user_id: k.user_id,
              month: sql<string>`${month}`.as('month'),
              count: sql<number>`1`.as('count'),
              last_used_at: sql<number>`${now.getTime()}`.as('last_used_at'),
            })
            .from(k)
            .where(accepted),
        )
        .onConflictDoUpdate({
          target: [schema.apiUsage.key_id, schema.apiUsage.month],
          set: { count: sql`${schema.apiUsage.count} + 1`, last_used_at: sql`excluded.last_used_at` },
        }),
    ]);
  } else {
    rows = await lookup;
  }

  const row = rows[0];
  if (!row) throw unauthorized(INVALID_API_KEY);
  if (row.revoked_at) throw unauthorized(REVOKED_API_KEY);

  const scopes = API_SCOPES.filter((s) => (row.scopes as string[]).includes(s));
  const limit = monthlyApiCalls(row.user.plan);
  const usedBefore = row.used ?? 0;
  let refusal: KeyCall['refusal'] = null;
  if (mode.meter && mode.scope && !scopes.includes(mode.scope)) refusal = 'scope';
  else if (mode.meter && usedBefore >= limit) refusal = 'quota';
  const accepted = mode.meter && refusal === null;
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
