import { DurableObject } from 'cloudflare:workers';
import { advanceMessage } from '../domains/messages/release/advance-message';
import { createServiceContext, type Bindings } from '../env';

/**
 * One per message (named by its id): the alarm is the message's next time-based step — `deliver_at`
 * for a message without rules, a fixed date, the end of a cancel window, a delay after death. D1 is the
 * record; each wake re-reads the message, applies what is due (advanceMessage, idempotent) and arms the
 * alarm for the next step. If the alarm handler throws, the runtime retries it.
 */
export class ReleaseClock extends DurableObject<Bindings> {
  async sync(messageId: string): Promise<number | null> {
    await this.ctx.storage.put('messageId', messageId);
    return this.advanceAndArm();
  }

  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    await this.advanceAndArm();
  }

  private async advanceAndArm(): Promise<number | null> {
    const messageId = await this.ctx.storage.get<string>('messageId');
    if (!messageId) return null;
    const { nextWakeAt } = await advanceMessage(createServiceContext(this.env), messageId, 'alarm');
    if (!nextWakeAt) {
      await this.stop();
      return null;
    }
    await this.ctx.storage.setAlarm(nextWakeAt);
    return nextWakeAt.getTime();
  }
}
