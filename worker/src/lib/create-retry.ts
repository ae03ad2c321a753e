import { AppError } from './errors';
import { hashSecret } from './secrets';
import { isUniqueViolation } from './constraint-violation';

/**
 * What every create that takes an `idempotency_key` shares (docs/decisions/create-retries.md): the key and a digest
 * of the call's input, stored on the row it writes under a unique index on (owner, key); the check that a key
 * found again came with the same input; and the clash by which a try racing another learns it lost.
 */

/** The key of a keyed create's input, and the SHA-256 digest of the rest of it (the parsed input's fields come in the schema's order, so one input has one digest). */
export async function keyAndDigestOf(input: { idempotency_key?: string | null }): Promise<{ key: string; digest: string }> {
  const { idempotency_key: key, ...rest } = input;
  if (!key) throw new Error('keyAndDigestOf needs an idempotency_key');
  return { key, digest: await hashSecret(JSON.stringify(rest)) };
}

/** The refusal of a key sent again with another input: a second thing must not be lost behind the first one's answer. */
export const keyReusedDetail = (thing: string) => `This idempotency_key was already used for a different ${thing}: use a new key for a new ${thing}`;

/**
 * The row an earlier try with this key wrote, or null; 409 when that try came with another input. `found` is the
 * row the key names among its owner's, as the caller's domain reads it.
 */
export function keyedRow<R extends { create_digest: string | null }>(found: R | undefined, digest: string, thing: string): R | null {
  if (found && found.create_digest !== digest) throw new AppError('CONFLICT', keyReusedDetail(thing));
  return found ?? null;
}

/** Whether a failed write clashed with `table`'s unique index on (`ownerColumn`, create_key): another try of the same create wrote first. */
export const isKeyClash = (err: unknown, table: string, ownerColumn: string) => isUniqueViolation(err, `${table}.${ownerColumn}, ${table}.create_key`);
