import { schema } from '@afterword/db';
import type { StoredRule, User } from '@afterword/db/schema';
import { eq } from 'drizzle-orm';
import { parseEnvelope } from '../../contracts/e2ee';
import { E2EE_MESSAGE_ERRORS, parseIsoInstant, type MessageView, type TCreateMessage } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { assertStorageFits } from '../storage/storage-meter';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { audioKey, decodeAudio, decodeSealedAudio } from './audio';
import { getOwnMessage } from './read-messages';
import { currentMisses, firingMissRule } from './release/arm-on-missed-checkins';
import { describeRule } from './release/describe';
import { loadEngineMessage } from './release/load-message';
import { syncReleaseTimer } from './release/release-timer';
import { nextWakeAt } from './release/schedule';
import { armMessage } from './release/transitions';
import { humanTime } from '../../lib/human-time';
import { createRetryOf, isCreateKeyClash } from './create-retry';

/**
 * The shape rules of an end-to-end encrypted message (docs/server-rules.md "End-to-end encryption"). The server
 * only checks that `content_encrypted` is a v1 envelope with a key for the recipient: it has no key to open it.
 * Returns what to store as `content_encrypted`.
 */
function checkSealedFields(input: TCreateMessage): string | null {
  if (!input.use_e2ee) {
    if (input.content_encrypted != null) throw bodyFieldError('content_encrypted', E2EE_MESSAGE_ERRORS.notE2ee, 'e2ee_required');
    return null;
  }
  if (input.content !== '') throw bodyFieldError('content', E2EE_MESSAGE_ERRORS.contentNotEmpty, 'e2ee_content');
  if (input.content_encrypted == null || input.content_encrypted === '')
    throw bodyFieldError('content_encrypted', E2EE_MESSAGE_ERRORS.envelopeMissing, 'missing');
  const parsed = parseEnvelope(input.content_encrypted);
  if (!parsed.ok) throw bodyFieldError('content_encrypted', parsed.error, 'envelope');
  const recipientId = input.recipient_user_id.toLowerCase();
  if (!parsed.envelope.recipients.some((w) => w.kid.toLowerCase() === recipientId))
    throw bodyFieldError('content_encrypted', E2EE_MESSAGE_ERRORS.noRecipientWrap, 'envelope_recipient');
  return input.content_encrypted;
}

/**
 * POST /api/message/create: stores the message (audio in R2) and starts its release schedule. With an
 * `idempotency_key`, a call sent again after its answer was lost gets the message the first try wrote
 * (create-retry.ts), with whatever steps after its write that try did not reach done now.
 */
export async function createMessage(ctx: ServiceContext, sender: User, input: TCreateMessage): Promise<MessageView> {
  const retry = input.idempotency_key ? await createRetryOf(ctx, sender.id, input) : null;
  if (retry?.existing) return finishCreate(ctx, sender.id, retry.existing);
  await requireConsent(ctx, sender.id, 'messages', consentWithdrawn('messages', 'no new messages are created'));
  const contentEncrypted = checkSealedFields(input);
  const [recipient] = await ctx.db
    .select({ id: schema.users.id, keys: schema.userKeys.user_id })
    .from(schema.users)
    .leftJoin(schema.userKeys, eq(schema.userKeys.user_id, schema.users.id))
    .where(eq(schema.users.id, input.recipient_user_id.toLowerCase()))
    .limit(1);
  if (!recipient) throw new AppError('NOT_FOUND', 'Recipient not found: no user has this id');
  if (input.use_e2ee && !recipient.keys) throw bodyFieldError('recipient_user_id', E2EE_MESSAGE_ERRORS.recipientHasNoKeys, 'e2ee_no_keys');
  // Decoded and checked before anything is stored: a bad file leaves nothing behind.
  // An E2EE message's audio is ciphertext: no magic bytes to check, stored as opaque bytes.
  const audio = input.audio_base64 ? (input.use_e2ee ? decodeSealedAudio(input.audio_base64) : decodeAudio(input.audio_base64)) : null;

  const now = ctx.now();
  const id = crypto.randomUUID();
  const deliverAt = input.deliver_at ? parseIsoInstant(input.deliver_at)! : now;
  const rules: StoredRule[] = input.rules.map((r) => ({
    trigger_type: r.trigger_type,
    trigger_value: r.trigger_value,
    expire_window: r.expire_window,
    fired_at: null,
  }));
  const waiting = rules.length
    ? `Waiting for ${rules.map(describeRule).join(' or ')}; never before ${humanTime(deliverAt.getTime())}.`
    : `Scheduled for ${humanTime(deliverAt.getTime())}.`;

  if (audio) await assertStorageFits(ctx, sender, audio.bytes.length);
  if (audio) await ctx.env.BLOBS.put(audioKey(id), audio.bytes, { httpMetadata: { contentType: audio.type }, customMetadata: { owner: sender.id } });
  try {
    await ctx.db.batch([
      ctx.db.insert(schema.messages).values({
        id,
        sender_id: sender.id,
        recipient_user_id: recipient.id,
        content: input.content,
        content_encrypted: contentEncrypted,
        audio_key: audio ? audioKey(id) : null,
        audio_type: audio?.type ?? null,
        audio_bytes: audio?.bytes.length ?? null,
        deliver_at: deliverAt,
        delivery_method: input.delivery_method,
        use_e2ee: input.use_e2ee,
        rules,
        status: 'scheduled',
        created_at: now,
        updated_at: now,
        create_key: retry?.key ?? null,
        create_digest: retry?.digest ?? null,
      }),
      ctx.db.insert(schema.messageTransitions).values({
        id: crypto.randomUUID(),
        message_id: id,
        from_status: null,
        to_status: 'scheduled',
        cause: 'created',
        detail: `Created. ${waiting}`,
        created_at: now,
      }),
    ]);
  } catch (err) {
    if (audio) await ctx.env.BLOBS.delete(audioKey(id));
    // Another try of the same create wrote its message first (the key's unique index): that one is the answer.
    const raced = retry && isCreateKeyClash(err) ? await createRetryOf(ctx, sender.id, input) : null;
    if (raced?.existing) return finishCreate(ctx, sender.id, raced.existing);
    throw err;
  }
  return finishCreate(ctx, sender.id, id);
}

/**
 * The steps after a message's write, each safe to take again (a retried create takes them for a try that
 * died after its write): a missed-check-ins rule the sender already satisfies arms it now, and its release
 * timer is set.
 */
async function finishCreate(ctx: ServiceContext, senderId: string, id: string): Promise<MessageView> {
  let fresh = await loadEngineMessage(ctx, id);
  const rules = fresh?.message.rules ?? [];
  if (fresh?.message.status === 'scheduled' && rules.some((r) => r.trigger_type === 'missed_checkins')) {
    const misses = await currentMisses(ctx, senderId);
    const index = misses > 0 ? firingMissRule(rules, misses) : -1;
    if (index >= 0) {
      await armMessage(
        ctx,
        fresh,
        index,
        ctx.now().getTime(),
        `${misses} missed check-in${misses === 1 ? '' : 's'} in a row when it was created`,
        'created-while-missing',
      );
      fresh = await loadEngineMessage(ctx, id);
    }
  }
  if (fresh && nextWakeAt(fresh.message, fresh.deathConfirmedAt) != null) await syncReleaseTimer(ctx.env, id);
  return getOwnMessage(ctx, senderId, id);
}
