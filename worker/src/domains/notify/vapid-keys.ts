import { schema } from '@afterword/db';
import { eq } from 'drizzle-orm';
import { generateVapidKeys, type VapidConfig } from '../../channels/push';
import { isProduction, type ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

/** app_settings key of the pair generated for local development. */
export const LOCAL_VAPID_SETTING = 'vapid_keys';

/**
 * Contact URI push services see when VAPID_SUBJECT is unset (local only). Not a localhost address:
 * some push services refuse those.
 */
export const LOCAL_VAPID_SUBJECT = 'mailto:afterword-dev@example.com';

export const PUSH_NOT_CONFIGURED = 'Push notifications are not configured';

/**
 * The VAPID pair the server signs with: the configured one, or outside production a pair generated
 * once and kept in app_settings, so a newcomer gets working push without creating keys. Production
 * never generates one: a key that silently changed would break every existing subscription.
 */
export async function vapidKeysFor(ctx: ServiceContext): Promise<VapidConfig> {
  const env = ctx.env;
  const subject = env.VAPID_SUBJECT || LOCAL_VAPID_SUBJECT;
  if (env.VAPID_PUBLIC_KEY) {
    if (!env.VAPID_PRIVATE_KEY) throw new AppError('NOT_IMPLEMENTED', PUSH_NOT_CONFIGURED);
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  if (isProduction(env)) throw new AppError('NOT_IMPLEMENTED', PUSH_NOT_CONFIGURED);
  return { ...(await localVapidKeys(ctx)), subject };
}

/** GET /api/notify/push/key: what PushManager.subscribe takes as applicationServerKey. */
export async function vapidPublicKey(ctx: ServiceContext): Promise<{ public_key: string }> {
  // The public half alone is enough to answer, even where the private half lives elsewhere.
  if (ctx.env.VAPID_PUBLIC_KEY) return { public_key: ctx.env.VAPID_PUBLIC_KEY };
  return { public_key: (await vapidKeysFor(ctx)).publicKey };
}

async function localVapidKeys(ctx: ServiceContext): Promise<{ publicKey: string; privateKey: string }> {
  const stored = await readLocalKeys(ctx);
  if (stored) return stored;
  const fresh = await generateVapidKeys();
  // Insert-or-ignore then re-read: concurrent first calls all end up with the one pair that won.
  await ctx.db
    .insert(schema.appSettings)
    .values({ key: LOCAL_VAPID_SETTING, value: JSON.stringify(fresh), created_at: ctx.now() })
    .onConflictDoNothing();
  const winner = await readLocalKeys(ctx);
  if (!winner) throw new Error('local VAPID keys were not stored');
  return winner;
}

async function readLocalKeys(ctx: ServiceContext) {
  const [row] = await ctx.db.select().from(schema.appSettings).where(eq(schema.appSettings.key, LOCAL_VAPID_SETTING)).limit(1);
  if (!row) return null;
  const { publicKey, privateKey } = JSON.parse(row.value) as { publicKey: string; privateKey: string };
  return { publicKey, privateKey };
}
