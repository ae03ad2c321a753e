import { insertWithinLimits, type Limit, wrote } from '../../lib/limited-insert';
import { schema } from '@afterword/db';
import type { ApiKey } from '@afterword/db/schema';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  API_SCOPES,
  MAX_ACTIVE_API_KEYS,
  type TApiKey,
  type TCreateApiKeyInput,
  type TCreatedApiKey,
  type TRevokedApiKey,
  ZCreateApiKeyInput,
} from '../../contracts/developer';
import type { ServiceContext } from '../../env';
import { AppError, notFound } from '../../lib/errors';
import { hashSecret } from '../../lib/secrets';
import { displayPrefix, newApiKey } from './key-format';
import { pendingForKey } from './usage-buffer';

const keyNotFound = () => notFound('API key not found');

type KeyUsage = { usage_count: number; last_used_at: Date | null };

/** A key as listed: never the key or its hash. */
export function toApiKeyView(row: ApiKey & KeyUsage): TApiKey {
  return {
    id: row.id,
    client_name: row.client_name,
    scopes: API_SCOPES.filter((s) => row.scopes.includes(s)),
    usage_count: row.usage_count,
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
    sandbox: row.sandbox,
    created_at: row.created_at.toISOString(),
    prefix: row.prefix,
  };
}

/** At most MAX_ACTIVE_API_KEYS keys not revoked, held by the insert itself. */
export const activeKeyLimit = (userId: string): Limit => ({
  count: 'SELECT count(*) FROM api_keys WHERE user_id = ? AND revoked_at IS NULL',
  params: [userId],
  max: MAX_ACTIVE_API_KEYS,
});

/** POST /api/developer/keys: the key is returned this once; the table keeps only its SHA-256 and prefix. */
export async function createApiKey(ctx: ServiceContext, userId: string, raw: TCreateApiKeyInput): Promise<TCreatedApiKey> {
  const input = ZCreateApiKeyInput.parse(raw);
  const key = newApiKey(input.sandbox);
  const row: ApiKey = {
    id: crypto.randomUUID(),
    user_id: userId,
    client_name: input.name,
    key_hash: await hashSecret(key),
    prefix: displayPrefix(key),
    // Once each, in API_SCOPES order.
    scopes: API_SCOPES.filter((s) => input.scopes.includes(s)),
    sandbox: input.sandbox,
    created_at: ctx.now(),
    revoked_at: null,
  };
  // The limit is part of the insert (lib/limited-insert.ts): parallel creations cannot pass it together.
  const created = await insertWithinLimits(ctx.env.DB, 'api_keys', row, [activeKeyLimit(userId)]).run();
  if (!wrote(created)) throw new AppError('FORBIDDEN', `You can hold at most ${MAX_ACTIVE_API_KEYS} active API keys; revoke one first`);
  return { ...toApiKeyView({ ...row, usage_count: 0, last_used_at: null }), key };
}

/** GET /api/developer/keys: the caller's active keys, newest first. */
export async function listApiKeys(ctx: ServiceContext, userId: string): Promise<TApiKey[]> {
  const u = schema.apiUsage;
  const rows = await ctx.db
    .select({
      key: schema.apiKeys,
      // Derived from the per-month rows in D1, plus this isolate's calls not yet written (usage-buffer.ts).
      usage_count: sql<number>`(SELECT coalesce(sum(${u.count}), 0) FROM ${u} WHERE ${u.key_id} = ${schema.apiKeys.id})`,
      last_used_at: sql<number | null>`(SELECT max(${u.last_used_at}) FROM ${u} WHERE ${u.key_id} = ${schema.apiKeys.id})`,
    })
    .from(schema.apiKeys)
    .where(and(eq(schema.apiKeys.user_id, userId), isNull(schema.apiKeys.revoked_at)))
    .orderBy(desc(schema.apiKeys.created_at), desc(schema.apiKeys.id));
  return rows.map((r) => {
    const unwritten = pendingForKey(r.key.id);
    const lastUsed = Math.max(Number(r.last_used_at ?? 0), unwritten.lastUsedAt ?? 0);
    return toApiKeyView({ ...r.key, usage_count: Number(r.usage_count) + unwritten.count, last_used_at: lastUsed ? new Date(lastUsed) : null });
  });
}

/** DELETE /api/developer/keys/{id}: the key answers 401 from the next call on. 404 when not yours or already revoked. */
export async function revokeApiKey(ctx: ServiceContext, userId: string, keyId: string): Promise<TRevokedApiKey> {
  const now = ctx.now();
  const revoked = await ctx.db
    .update(schema.apiKeys)
    .set({ revoked_at: now })
    .where(and(eq(schema.apiKeys.id, keyId.toLowerCase()), eq(schema.apiKeys.user_id, userId), isNull(schema.apiKeys.revoked_at)))
    .returning({ id: schema.apiKeys.id });
  if (!revoked.length) throw keyNotFound();
  return { id: revoked[0]!.id, revoked_at: now.toISOString() };
}

export { keyNotFound };
