import { schema } from '@afterword/db';
import { and, eq } from 'drizzle-orm';
import type { TCreateMessage } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { isKeyClash, keyAndDigestOf, keyedRow, keyReusedDetail } from '../../lib/create-retry';

export const CREATE_KEY_REUSED = keyReusedDetail('message');

/**
 * A create call's idempotency key (docs/decisions/create-retries.md): the key, a digest of the call's input, and
 * the message an earlier try with this key wrote, if one did. The same key with another input is refused (409): a
 * key names one message, and a second message must not be lost behind the first's answer.
 */
export async function createRetryOf(
  ctx: ServiceContext,
  senderId: string,
  input: TCreateMessage,
): Promise<{ key: string; digest: string; existing: string | null }> {
  const { key, digest } = await keyAndDigestOf(input);
  const [row] = await ctx.db
    .select({ id: schema.messages.id, create_digest: schema.messages.create_digest })
    .from(schema.messages)
    .where(and(eq(schema.messages.sender_id, senderId), eq(schema.messages.create_key, key)))
    .limit(1);
  return { key, digest, existing: keyedRow(row, digest, 'message')?.id ?? null };
}

/** Whether a failed write clashed with the key's unique index: another try of the same create wrote first. */
export const isCreateKeyClash = (err: unknown) => isKeyClash(err, 'messages', 'sender_id');
