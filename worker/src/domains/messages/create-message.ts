import { schema } from '@afterword/db';
import type { StoredRule, User } from '@afterword/db/schema';
import { eq } from 'drizzle-orm';
import { parseIsoInstant, type MessageView, type TCreateMessage } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { audioKey, decodeAudio } from './audio';
import { getOwnMessage } from './read-messages';
import { currentMisses, firingMissRule } from './release/arm-on-missed-checkins';
import { describeRule, iso } from './release/describe';
import { loadEngineMessage } from './release/load-message';
import { syncReleaseTimer } from './release/release-timer';
import { nextWakeAt } from './release/schedule';
import { armMessage } from './release/transitions';

export const E2EE_NOT_AVAILABLE =
  'End-to-end encrypted messages cannot be sent yet: the encryption keys are not set up. Send it without end-to-end encryption, or wait for the update.';

/** POST /api/message/create: stores the message (audio in R2) and starts its release schedule. */
export async function createMessage(ctx: ServiceContext, sender: User, input: TCreateMessage): Promise<MessageView> {
  if (input.use_e2ee) throw new AppError('UNPROCESSABLE', [{ loc: ['body', 'use_e2ee'], msg: E2EE_NOT_AVAILABLE, type: 'e2ee_unavailable' }]);
  const [recipient] = await ctx.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.id, input.recipient_user_id.toLowerCase())).limit(1);
  if (!recipient) throw new AppError('NOT_FOUND', 'Recipient not found: no user has this id');
  // Decoded and checked before anything is stored: a bad file leaves nothing behind.
  const audio = input.audio_base64 ? decodeAudio(input.audio_base64) : null;

  const now = ctx.now();
  const id = crypto.randomUUID();
  const deliverAt = input.deliver_at ? parseIsoInstant(input.deliver_at)! : now;
  const rules: StoredRule[] = input.rules.map((r) => ({ trigger_type: r.trigger_type, trigger_value: r.trigger_value, expire_window: r.expire_window, fired_at: null }));
  const waiting = rules.length
    ? `Waiting for ${rules.map(describeRule).join(' or ')}; never before ${iso(deliverAt.getTime())}.`
    : `Scheduled for ${iso(deliverAt.getTime())}.`;

  if (audio) await ctx.env.BLOBS.put(audioKey(id), audio.bytes, { httpMetadata: { contentType: audio.type }, customMetadata: { owner: sender.id } });
  try {
    await ctx.db.batch([
      ctx.db.insert(schema.messages).values({
        id,
        sender_id: sender.id,
        recipient_user_id: recipient.id,
        content: input.content,
        content_encrypted: null,
        audio_key: audio ? audioKey(id) : null,
        audio_type: audio?.type ?? null,
        audio_bytes: audio?.bytes.length ?? null,
        deliver_at: deliverAt,
        delivery_method: input.delivery_method,
        use_e2ee: false,
        rules,
        status: 'scheduled',
        created_at: now,
        updated_at: now,
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
    throw err;
  }

  // Created while the sender is already missing check-ins: a satisfied rule arms it now.
  if (rules.some((r) => r.trigger_type === 'missed_checkins')) {
    const misses = await currentMisses(ctx, sender.id);
    const index = misses > 0 ? firingMissRule(rules, misses) : -1;
    if (index >= 0) {
      const loaded = await loadEngineMessage(ctx, id);
      if (loaded) await armMessage(ctx, loaded, index, now.getTime(), `${misses} missed check-in${misses === 1 ? '' : 's'} in a row when it was created`, 'created-while-missing');
    }
  }
  const fresh = await loadEngineMessage(ctx, id);
  if (fresh && nextWakeAt(fresh.message, fresh.deathConfirmedAt) != null) await syncReleaseTimer(ctx.env, id);
  return getOwnMessage(ctx, sender.id, id);
}
