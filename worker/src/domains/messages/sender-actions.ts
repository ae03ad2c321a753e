import type { MessageView } from '../../contracts/messages';
import type { ServiceContext } from '../../env';
import { AppError } from '../../lib/errors';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { getOwnMessage, loadOwnMessage } from './read-messages';
import { commitTransition } from './release/commit-transition';
import { loadEngineMessage } from './release/load-message';
import { syncReleaseTimer } from './release/release-timer';
import { isOpen } from './release/schedule';
import { releaseMessage } from './release/transitions';

const alreadyDone = (status: string) => new AppError('CONFLICT', status === 'cancelled' ? 'This message was cancelled' : 'This message was already released');

/** POST /api/messages/deliver/{id}: the sender releases a scheduled or armed message now. */
export async function deliverNow(ctx: ServiceContext, userId: string, id: string): Promise<MessageView> {
  const own = await loadOwnMessage(ctx, userId, id);
  await requireConsent(ctx, userId, 'messages', consentWithdrawn('messages', 'releases are paused, by hand too'));
  // Not loaded: its recipient left Afterword (the message was cancelled with the account).
  const loaded = await loadEngineMessage(ctx, id);
  if (!loaded || !isOpen(loaded.message.status)) throw alreadyDone(loaded?.message.status ?? own.status);
  const { applied } = await releaseMessage(ctx, loaded, 'manual', 'You released it by hand.');
  if (!applied) {
    // Something else moved it first (another release, a cancel): answer as if it had come first.
    const now = await loadOwnMessage(ctx, userId, id);
    if (isOpen(now.status)) throw new AppError('CONFLICT', 'The message changed at the same moment; try again');
    throw alreadyDone(now.status);
  }
  return getOwnMessage(ctx, userId, id);
}

/** POST /api/message/{id}/cancel: the sender withdraws a message that was not released. */
export async function cancelMessage(ctx: ServiceContext, userId: string, id: string): Promise<MessageView> {
  const message = await loadOwnMessage(ctx, userId, id);
  if (!isOpen(message.status)) throw alreadyDone(message.status);
  const { applied } = await commitTransition(ctx, message, {
    to: 'cancelled',
    cause: 'cancelled_by_sender',
    detail: 'You cancelled it; it will never be released.',
    set: { finished_at: ctx.now().getTime(), cancel_deadline: null },
  });
  if (!applied) throw new AppError('CONFLICT', 'The message changed at the same moment; try again');
  // Its clock finds it closed and stops.
  await syncReleaseTimer(ctx.env, id);
  return getOwnMessage(ctx, userId, id);
}
