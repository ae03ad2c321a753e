import { schema } from '@afterword/db';
import type { UserKeys } from '@afterword/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import type { KeyBundleView, PublicKeyLookup, PublicKeyView, RecoveryStatus } from '../../contracts/e2ee';
import type { TKeyBundle, TPublicKeyJwk, TWrappedPrivateKey } from '../../contracts/e2ee';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';

export const NO_KEYS_YET = 'No encryption keys yet';
export const NO_PUBLIC_KEY = 'This user has no encryption keys (or does not exist)';
export const KEYS_EXIST =
  'This account already has encryption keys. They are replaced only by a password reset without the recovery key (POST /api/auth/password-reset/confirm).';

function toBundleView(row: UserKeys): KeyBundleView {
  return {
    public_key: row.public_key as TPublicKeyJwk,
    password_wrap: row.password_wrap as TWrappedPrivateKey,
    recovery_wrap: row.recovery_wrap as TWrappedPrivateKey,
    recovery_saved_at: row.recovery_saved_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

async function keysRow(ctx: ServiceContext, userId: string): Promise<UserKeys | undefined> {
  const [row] = await ctx.db.select().from(schema.userKeys).where(eq(schema.userKeys.user_id, userId)).limit(1);
  return row;
}

export async function hasKeys(ctx: ServiceContext, userId: string): Promise<boolean> {
  const [row] = await ctx.db.select({ id: schema.userKeys.user_id }).from(schema.userKeys).where(eq(schema.userKeys.user_id, userId)).limit(1);
  return !!row;
}

/** GET /api/keys/me: the caller's bundle (the private key only wrapped), 404 before they made one. */
export async function getOwnKeys(ctx: ServiceContext, userId: string): Promise<KeyBundleView> {
  const row = await keysRow(ctx, userId);
  if (!row) throw new AppError('NOT_FOUND', NO_KEYS_YET);
  return toBundleView(row);
}

/** PUT /api/keys/me: the account's first bundle. A second one is 409 (the insert decides, so two racing requests cannot both win). */
export async function createKeys(ctx: ServiceContext, userId: string, bundle: TKeyBundle): Promise<KeyBundleView> {
  const now = ctx.now();
  const [row] = await ctx.db
    .insert(schema.userKeys)
    .values({
      user_id: userId,
      public_key: bundle.public_key,
      password_wrap: bundle.password_wrap,
      recovery_wrap: bundle.recovery_wrap,
      created_at: now,
      updated_at: now,
    })
    .onConflictDoNothing({ target: schema.userKeys.user_id })
    .returning();
  if (!row) throw new AppError('CONFLICT', KEYS_EXIST);
  return toBundleView(row);
}

/** GET /api/keys/me/recovery: always answered (no 404 before the keys exist), for the settings page. */
export async function getRecoveryStatus(ctx: ServiceContext, userId: string): Promise<RecoveryStatus> {
  const row = await keysRow(ctx, userId);
  return { has_keys: !!row, recovery_saved_at: row?.recovery_saved_at?.toISOString() ?? null };
}

/**
 * POST /api/keys/me/recovery/saved: the owner ticked "I saved my recovery key". Only the key the caller
 * was shown counts: `recovery_ct` names it (its wrap's ciphertext), so a tick in a tab that still shows an
 * older key (another tab made a new one since) is refused with 409 instead of marking the newer key saved.
 */
export async function markRecoverySaved(ctx: ServiceContext, userId: string, recoveryCt: string): Promise<KeyBundleView> {
  const row = await keysRow(ctx, userId);
  if (!row) throw new AppError('NOT_FOUND', NO_KEYS_YET);
  const [saved] = await ctx.db
    .update(schema.userKeys)
    .set({ recovery_saved_at: ctx.now(), updated_at: ctx.now() })
    .where(and(eq(schema.userKeys.user_id, userId), sql`json_extract(${schema.userKeys.recovery_wrap}, '$.ct') = ${recoveryCt}`))
    .returning();
  if (!saved) throw new AppError('CONFLICT', RECOVERY_KEY_REPLACED);
  return toBundleView(saved);
}

export const RECOVERY_KEY_REPLACED = 'This recovery key was replaced by a newer one. Save the newest recovery key: only it works.';

/** The caller's bundle after a new recovery key replaced the old one (not saved yet). */
export async function replaceRecoveryWrap(ctx: ServiceContext, userId: string, recoveryWrap: TWrappedPrivateKey): Promise<KeyBundleView> {
  const [row] = await ctx.db
    .update(schema.userKeys)
    .set({ recovery_wrap: recoveryWrap, recovery_saved_at: null, updated_at: ctx.now() })
    .where(eq(schema.userKeys.user_id, userId))
    .returning();
  if (!row) throw new AppError('NOT_FOUND', NO_KEYS_YET);
  return toBundleView(row);
}

export const publicKeyNotFound = () => new AppError('NOT_FOUND', NO_PUBLIC_KEY);

/**
 * keys.lookup: the public key, or null when the user has none or does not exist (one answer for both, as
 * the 404 of GET /api/keys/{userId} is). The web app asks this way so that a recipient without keys is an
 * answer, not a failed request in the browser's console.
 */
export async function lookupPublicKey(ctx: ServiceContext, userId: string): Promise<PublicKeyLookup> {
  const id = userId.toLowerCase();
  const [row] = await ctx.db.select({ public_key: schema.userKeys.public_key }).from(schema.userKeys).where(eq(schema.userKeys.user_id, id)).limit(1);
  return { user_id: id, public_key: (row?.public_key as TPublicKeyJwk | undefined) ?? null };
}

/** GET /api/keys/{userId}: any signed-in caller may seal for any user; 404 when the user or their keys do not exist. */
export async function getPublicKey(ctx: ServiceContext, userId: string): Promise<PublicKeyView> {
  const { user_id, public_key } = await lookupPublicKey(ctx, userId);
  if (!public_key) throw publicKeyNotFound();
  return { user_id, public_key };
}
