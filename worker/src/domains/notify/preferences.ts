import { schema } from '@afterword/db';
import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_NOTIFY_PREFERENCES, type TNotifyPreferences } from '../../contracts/notify';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

/** The user's notification preferences, or the defaults when they never saved any. */
export async function getNotifyPreferences(ctx: ServiceContext, userId: string): Promise<TNotifyPreferences> {
  const [row] = await ctx.db.select().from(schema.notificationPreferences).where(eq(schema.notificationPreferences.user_id, userId)).limit(1);
  if (!row) return DEFAULT_NOTIFY_PREFERENCES;
  return { methods: row.methods, quiet_hours: { start: row.quiet_start, end: row.quiet_end }, alerts: row.alerts };
}

export const SMS_NEEDS_VERIFIED_PHONE = 'Verify a phone number before choosing SMS';

/**
 * Saves the whole preferences object. SMS is refused until the phone is verified: a method that can
 * never reach the owner would only look like a safety net.
 */
export async function saveNotifyPreferences(ctx: ServiceContext, userId: string, prefs: TNotifyPreferences): Promise<TNotifyPreferences> {
  if (prefs.methods.includes('sms')) {
    const [user] = await ctx.db
      .select({ verifiedAt: schema.users.phone_verified_at, phone: schema.users.phone_e164 })
      .from(schema.users)
      .where(eq(schema.users.id, userId))
      .limit(1);
    if (!user?.phone || !user.verifiedAt) throw new AppError('UNPROCESSABLE', SMS_NEEDS_VERIFIED_PHONE);
  }
  const values = {
    methods: prefs.methods,
    quiet_start: prefs.quiet_hours.start,
    quiet_end: prefs.quiet_hours.end,
    alerts: prefs.alerts,
    updated_at: ctx.now(),
  };
  await ctx.db
    .insert(schema.notificationPreferences)
    .values({ user_id: userId, ...values })
    .onConflictDoUpdate({ target: schema.notificationPreferences.user_id, set: values });
  return { methods: prefs.methods, quiet_hours: { ...prefs.quiet_hours }, alerts: { ...prefs.alerts } };
}

/**
 * The statement that takes 'sms' out of saved methods, for when the phone goes away. In SQL so it
 * can join the phone's removal in one batch without a read-modify-write race.
 */
export function dropSmsMethodStatement(ctx: ServiceContext, userId: string) {
  const t = schema.notificationPreferences;
  return ctx.db
    .update(t)
    .set({
      methods: sql`(SELECT json_group_array(value) FROM json_each(${t.methods}) WHERE value <> 'sms')`,
      updated_at: ctx.now(),
    })
    .where(and(eq(t.user_id, userId), sql`EXISTS (SELECT 1 FROM json_each(${t.methods}) WHERE value = 'sms')`));
}
