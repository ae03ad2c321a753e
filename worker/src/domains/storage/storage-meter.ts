import type { User } from '@afterword/db/schema';
import { formatBytes, type StorageView } from '../../contracts/attachments';
import { PLAN_LIMITS, upgradeHint } from '../../contracts/plans';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

/*
 * The storage meter: what the plan's storage limit counts, for every domain that stores a user's bytes
 * (messages' audio, attachments, vault files, voice samples and prompts, capsule media) and for billing's
 * meters. Its own domain, depending on no other, so each of those depends on it and none on another for it.
 */

/** Where vault files live in R2; a vault item's message attachment points at the same object. */
export const VAULT_KEY_PREFIX = 'vault/';

/**
 * The one storage meter (docs/server-rules.md "Plans and data rights"; docs/decisions/billing.md), as one SQL
 * expression of the user id bound at `param`: the audio of the messages they wrote, the ciphertext of their
 * attachments and of their vault files — each vault file once, though its item's messages carry it as an
 * attachment — their voice samples and recorded Messages from the Beyond, and the audio and video files of the
 * capsules they wrote (text items are not storage). Summed by D1, never by listing rows into the Worker, and
 * used both to answer the meter and inside each upload's conditional INSERT.
 */
export const storageUsedSql = (param = '?1') =>
  `((SELECT COALESCE(SUM(audio_bytes), 0) FROM messages WHERE sender_id = ${param})` +
  ` + (SELECT COALESCE(SUM(size), 0) FROM message_attachments WHERE owner_id = ${param} AND r2_key NOT LIKE '${VAULT_KEY_PREFIX}%')` +
  ` + (SELECT COALESCE(SUM(size), 0) FROM vault_assets WHERE owner_id = ${param})` +
  ` + (SELECT COALESCE(SUM(size), 0) FROM voice_samples WHERE owner_id = ${param})` +
  ` + (SELECT COALESCE(SUM(size), 0) FROM voice_prompts WHERE owner_id = ${param})` +
  ` + (SELECT COALESCE(SUM(i.size), 0) FROM capsule_items i JOIN capsules c ON c.id = i.capsule_id WHERE c.author_id = ${param} AND i.r2_key IS NOT NULL))`;

export async function storageUsedBytes(ctx: ServiceContext, userId: string): Promise<number> {
  const row = await ctx.env.DB.prepare(`SELECT ${storageUsedSql()} AS used`).bind(userId).first<{ used: number }>();
  return Number(row?.used ?? 0);
}

export const storageLimitBytes = (plan: User['plan']) => PLAN_LIMITS[plan].storageBytes;

/**
 * The plan's quota, what is used and what the new bytes need, and the plan that holds more: 403 for every
 * kind of file (docs/decisions/billing.md: one meter, one refusal; attachments and audio answered 413 before it).
 */
export function quotaExceeded(plan: User['plan'], used: number, size: number) {
  const limit = storageLimitBytes(plan);
  return new AppError(
    'FORBIDDEN',
    `Storage quota exceeded: the ${PLAN_LIMITS[plan].name} plan includes ${formatBytes(limit)} of storage; you use ${formatBytes(used)} and this file needs ${formatBytes(size)} more. ${upgradeHint(plan, (l) => l.storageBytes > used + size)}`,
  );
}

/** Refuses `size` more bytes for the user when they would pass their plan's storage. */
export async function assertStorageFits(ctx: ServiceContext, user: Pick<User, 'id' | 'plan'>, size: number) {
  const used = await storageUsedBytes(ctx, user.id);
  if (used + size > storageLimitBytes(user.plan)) throw quotaExceeded(user.plan, used, size);
}

/** GET /api/profile/storage. */
export async function getStorage(ctx: ServiceContext, user: Pick<User, 'id' | 'plan'>): Promise<StorageView> {
  return { used_bytes: await storageUsedBytes(ctx, user.id), limit_bytes: storageLimitBytes(user.plan), plan: user.plan };
}
