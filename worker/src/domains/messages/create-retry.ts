import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { TCreateMessage } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { hashSecret } from '../../lib/secrets';

export const CREATE_KEY_REUSED = 'This idempotency_key was already used for a different message: use a new key for a new message';

/**
 * A create call's idempotency key (docs/decisions/message-create-retries.md): the key, a digest of the call's
 * input, and the message an earlier try with this key wrote, if one did. The same key with another input is
 * refused (409): a key names one message, and a second message must not be lost behind the first's answer.
 */
export async function createRetryOf(
  ctx: ServiceContext,
  senderId: string,
  input: TCreateMessage,
): Promise<{ key: string; digest: string; existing: string | null }> {
  const { idempotency_key: key, ...rest } = input;
  if (!key) throw new Error('createRetryOf needs an idempotency_key');
  // The parsed input's fields come in the schema's order, so one input has one digest.
  const digest = await hashSecret(JSON.stringify(rest));
  const [row] = await ctx.db
    .select({ id: schema.messages.id, digest: schema.messages.create_digest })
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, senderId), eq(schema.messages.create_key, key)))
    .limit(1);
  if (row && row.digest !== digest) throw new AppError('CONFLICT', CREATE_KEY_REUSED);
  return { key, digest, existing: row?.id ?? null };
}

/** Whether a failed write clashed with the key's unique index: another try of the same create wrote first. */
export const isCreateKeyClash = (err: unknown) => /UNIQUE constraint failed: messages\.sender_id, messages\.create_key/.test(String(err));
