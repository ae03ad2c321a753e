import { schema } from '@afterword/db';
import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { PushSubscriptionJson } from '../../channels/types';
import type { PushSubscriptionView, TPushSubscription } from '../../contracts/notify';
import { isProduction, type ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

export interface StoredPushSubscription extends PushSubscriptionJson {
  id: string;
}

/**
 * Devices kept per user. Browsers rotate subscriptions and a dead one is only noticed at the next
 * send (404/410), so the oldest beyond this are dropped instead of refusing a new device.
 */
export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 20;

export const PUSH_SUBSCRIPTION_NOT_FOUND = 'Push subscription not found';

/** Every device the user subscribed for Web Push. */
export async function listPushSubscriptions(ctx: ServiceContext, userId: string): Promise<StoredPushSubscription[]> {
  const rows = await ctx.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.user_id, userId));
  return rows.map((r) => ({ id: r.id, endpoint: r.endpoint, keys: { p256dh: r.p256dh, auth: r.auth } }));
}

/** The push service answered 404/410: the subscription is gone for good. */
export async function removeGoneSubscription(ctx: ServiceContext, id: string) {
  await ctx.db.delete(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.id, id));
}

/** The caller's devices, newest first, as the settings page shows them. */
export async function listPushSubscriptionViews(ctx: ServiceContext, userId: string): Promise<PushSubscriptionView[]> {
  const t = schema.pushSubscriptions;
  const rows = await ctx.db
    .select({ id: t.id, endpoint: t.endpoint, created_at: t.created_at })
    .from(t)
    .where(eq(t.user_id, userId))
    .orderBy(desc(t.created_at), desc(t.id));
  return rows.map((r) => ({ id: r.id, endpoint_origin: new URL(r.endpoint).origin, created_at: r.created_at.toISOString() }));
}

/**
 * Saves a browser's subscription. The endpoint is unique: a browser profile belongs to whoever
 * subscribed in it last, so an endpoint held by another user moves to the caller (with a new id and
 * date, so nothing of the previous owner's row carries over).
 */
export async function subscribePush(ctx: ServiceContext, userId: string, sub: TPushSubscription): Promise<{ id: string; endpoint: string }> {
  // Real push services are all https; http is only for a loopback test peer outside production.
  if (isProduction(ctx.env) && !sub.endpoint.startsWith('https://')) {
    throw new AppError('UNPROCESSABLE', 'endpoint must be an https URL');
  }
  const t = schema.pushSubscriptions;
  const now = ctx.now();
  const moved = sql`${t.user_id} <> excluded.user_id`;
  const [row] = await ctx.db
    .insert(t)
    .values({ id: crypto.randomUUID(), user_id: userId, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, created_at: now })
    .onConflictDoUpdate({
      target: t.endpoint,
      set: {
        id: sql`CASE WHEN ${moved} THEN excluded.id ELSE ${t.id} END`,
        created_at: sql`CASE WHEN ${moved} THEN excluded.created_at ELSE ${t.created_at} END`,
        user_id: sql`excluded.user_id`,
        p256dh: sql`excluded.p256dh`,
        auth: sql`excluded.auth`,
      },
    })
    .returning({ id: t.id, endpoint: t.endpoint });
  if (!row) throw new Error('push subscription upsert returned no row');
  await pruneOldSubscriptions(ctx, userId);
  return row;
}

async function pruneOldSubscriptions(ctx: ServiceContext, userId: string) {
  const t = schema.pushSubscriptions;
  const keep = ctx.db
    .select({ id: t.id })
    .from(t)
    .where(eq(t.user_id, userId))
    .orderBy(desc(t.created_at), desc(t.id))
    .limit(MAX_PUSH_SUBSCRIPTIONS_PER_USER);
  await ctx.db.delete(t).where(and(eq(t.user_id, userId), notInArray(t.id, keep)));
}

/** Removes one of the caller's devices; another user's endpoint answers 404 like an unknown one. */
export async function unsubscribePush(ctx: ServiceContext, userId: string, endpoint: string): Promise<{ removed: true }> {
  const t = schema.pushSubscriptions;
  const gone = await ctx.db
    .delete(t)
    .where(and(eq(t.endpoint, endpoint), eq(t.user_id, userId)))
    .returning({ id: t.id });
  if (!gone.length) throw new AppError('NOT_FOUND', PUSH_SUBSCRIPTION_NOT_FOUND);
  return { removed: true };
}
